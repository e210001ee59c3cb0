import {
  getLatestNodeSamples,
  getNodeSeries,
  getTopRemoteIps,
  insertNodeSamples,
  insertRemoteIps,
} from "@rpcpulse/db/fleet";
import { getProbeSeries, insertProbeResults } from "@rpcpulse/db/directory";
import { refreshRollups } from "@rpcpulse/db/platform";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  ENDPOINT,
  insertFixtureFleet,
  NODE_1,
  NODE_1_SAMPLES,
  NODE_2,
  NODE_2_SAMPLES,
  PROBES,
  VP_1,
  WINDOW,
} from "./fixtures.js";

/**
 * The same writes and reads, run against either storage mode. Tests assert hand-computed
 * numbers on the plain result and equality of the two modes' results.
 */
export async function runScenario(sql: SqlClient) {
  await insertFixtureFleet(sql);
  const inserted = await insertNodeSamples(sql, [...NODE_1_SAMPLES, ...NODE_2_SAMPLES]);
  const replayed = await insertNodeSamples(sql, [...NODE_1_SAMPLES, ...NODE_2_SAMPLES]);
  // An older sample arriving late must not move node_latest backwards.
  const late = await insertNodeSamples(sql, [
    { time: new Date("2026-01-05T10:58:00Z"), nodeId: NODE_2, tcpEstablished: 9 },
  ]);
  const probesInserted = await insertProbeResults(sql, PROBES);
  const probesReplayed = await insertProbeResults(sql, PROBES);
  const ipsInserted = await insertRemoteIps(sql, [
    { time: NODE_1_SAMPLES[0]!.time, nodeId: NODE_1, ip: "10.0.0.1", conns: 5 },
    { time: NODE_1_SAMPLES[0]!.time, nodeId: NODE_1, ip: "2001:db8::1", conns: 9 },
    { time: NODE_1_SAMPLES[1]!.time, nodeId: NODE_1, ip: "10.0.0.1", conns: 7 },
  ]);
  const ipsReplayed = await insertRemoteIps(sql, [
    { time: NODE_1_SAMPLES[0]!.time, nodeId: NODE_1, ip: "10.0.0.1", conns: 5 },
  ]);

  const refresh = await refreshRollups(sql, WINDOW);
  // Refreshing again is harmless.
  await refreshRollups(sql, WINDOW);

  const series = {
    raw: await getNodeSeries(sql, { nodeId: NODE_1, ...WINDOW, resolution: "raw" }),
    m1: await getNodeSeries(sql, { nodeId: NODE_1, ...WINDOW, resolution: "1m" }),
    h1: await getNodeSeries(sql, { nodeId: NODE_1, ...WINDOW, resolution: "1h" }),
    node2m1: await getNodeSeries(sql, { nodeId: NODE_2, ...WINDOW, resolution: "1m" }),
  };
  const latest = await getLatestNodeSamples(sql, [NODE_1, NODE_2, "00000000-0000-4000-8000-00000000ffff"]);
  const probes = {
    allRaw: await getProbeSeries(sql, { endpointId: ENDPOINT, ...WINDOW, resolution: "raw" }),
    all1m: await getProbeSeries(sql, { endpointId: ENDPOINT, ...WINDOW, resolution: "1m" }),
    vp1m: await getProbeSeries(sql, { endpointId: ENDPOINT, vantagePointId: VP_1, ...WINDOW, resolution: "1m" }),
    all1h: await getProbeSeries(sql, { endpointId: ENDPOINT, ...WINDOW, resolution: "1h" }),
  };
  const topIps = await getTopRemoteIps(sql, { nodeId: NODE_1, ...WINDOW });
  return {
    counts: { inserted, replayed, late, probesInserted, probesReplayed, ipsInserted, ipsReplayed },
    refreshWindows: refresh.windows,
    series,
    latest,
    probes,
    topIps,
  };
}
export type ScenarioResult = Awaited<ReturnType<typeof runScenario>>;
