/**
 * The alert evaluator's reads (src/alerting/alert-inputs.ts) return the same answers in plain
 * PostgreSQL and in TimescaleDB (PGlite) mode.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { insertNodeSamples, insertRemoteIps } from "@rpcpulse/db/fleet";
import { insertProbeResults } from "@rpcpulse/db/directory";
import {
  readEndpointAlertSnapshots,
  readHighSeveritySuggestions,
  readNodeAlertSnapshots,
  readNodeLatencyP95,
  readNodeTopRemoteIp,
} from "@rpcpulse/db/alerting";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  createTestDatabase,
  createTestNode,
  createTestOrg,
  createTimescaleTestDatabase,
  type TestDatabase,
  type TimescaleTestDatabase,
} from "../src/testing.js";

const NODE = "11111111-1111-4111-8111-111111111111";
const ENDPOINT = "22222222-2222-4222-8222-222222222222";
const VPS = [
  "33333333-3333-4333-8333-333333333331",
  "33333333-3333-4333-8333-333333333332",
  "33333333-3333-4333-8333-333333333333",
];
const NOW = new Date("2026-11-22T06:00:00Z");
const at = (secondsBefore: number) => new Date(NOW.getTime() - secondsBefore * 1000);

async function seed(sql: SqlClient): Promise<void> {
  await sql.query(`INSERT INTO chains (slug, name, api_families, finality, finality_note)
                   VALUES ('hive', 'Hive', '{hive}', 'irreversible', '') ON CONFLICT DO NOTHING`);
  await sql.query(`INSERT INTO networks (id, slug, chain_slug, name, block_interval_ms)
                   VALUES ('44444444-4444-4444-8444-444444444444', 'hive-alerts', 'hive', 'Hive', 3000)`);
  await createTestOrg(sql, { id: "org-alert-inputs", name: "Org" });
  await createTestNode(sql, {
    id: NODE,
    organizationId: "org-alert-inputs",
    networkId: "44444444-4444-4444-8444-444444444444",
    name: "hive-1",
    lastSeenAt: at(20),
  });
  await sql.query(
    `INSERT INTO public_endpoints (id, network_id, api_family, url, name, status)
     VALUES ($1, '44444444-4444-4444-8444-444444444444', 'hive', 'https://api.alerts.test', 'alerts endpoint', 'active')`,
    [ENDPOINT],
  );
  for (const [i, id] of VPS.entries()) {
    await sql.query(`INSERT INTO vantage_points (id, name, region, kind) VALUES ($1, $2, $3, 'server')`, [
      id,
      `server:r${i}`,
      `r${i}`,
    ]);
  }
  await insertNodeSamples(
    sql,
    [100, 60, 20].map((s, i) => ({
      time: at(s),
      nodeId: NODE,
      lagBlocks: 4 + i * 5,
      headAgeMs: 3_000 * (i + 1),
      totalMs: 10 * (i + 1),
      ephemeralInUse: 1_000 * (i + 1),
      ephemeralRange: 28_232,
      timeWaitOut: 500,
    })),
  );
  await insertRemoteIps(sql, [
    { time: at(20), nodeId: NODE, ip: "203.0.113.7", conns: 180 },
    { time: at(20), nodeId: NODE, ip: "203.0.113.8", conns: 12 },
    { time: at(60), nodeId: NODE, ip: "203.0.113.9", conns: 999 },
  ]);
  const probes = [];
  for (const s of [150, 90, 30]) {
    probes.push({ time: at(s), endpointId: ENDPOINT, vantagePointId: VPS[0]!, ok: false, errorClass: "timeout" });
    probes.push({ time: at(s), endpointId: ENDPOINT, vantagePointId: VPS[1]!, ok: true, totalMs: 100 });
    probes.push({ time: at(s), endpointId: ENDPOINT, vantagePointId: VPS[2]!, ok: true, totalMs: 300 });
  }
  probes.push({ time: at(400), endpointId: ENDPOINT, vantagePointId: VPS[1]!, ok: false, errorClass: "timeout" });
  await insertProbeResults(sql, probes);
}

async function readAll(sql: SqlClient) {
  const [node] = await readNodeAlertSnapshots(sql, [NODE]);
  const p95 = (await readNodeLatencyP95(sql, { nodeIds: [NODE], since: at(300) })).get(NODE);
  const top = (await readNodeTopRemoteIp(sql, [NODE])).get(NODE);
  const suggestions = await readHighSeveritySuggestions(sql, [NODE]);
  const [endpoint] = await readEndpointAlertSnapshots(sql, { endpointIds: [ENDPOINT], since: at(180) });
  return {
    node: node && { ...node, createdAt: null, p95: Math.round(p95?.p95 ?? -1), samples: p95?.samples },
    top,
    suggestions: suggestions.size,
    endpoint: endpoint && {
      ...endpoint,
      p95Ms: Math.round(endpoint.p95Ms ?? -1),
      vantages: [...endpoint.vantages].sort((a, b) => a.vantagePointId.localeCompare(b.vantagePointId)),
    },
  };
}

describe("alert inputs, plain and TimescaleDB modes", () => {
  let plain: TestDatabase;
  let ts: TimescaleTestDatabase;
  before(async () => {
    plain = await createTestDatabase();
    ts = await createTimescaleTestDatabase();
    await seed(plain.pool);
    await seed(ts.sql);
  });
  after(async () => {
    await plain?.drop();
    await ts?.close();
  });

  test("newest sample, p95, busiest IP and per-vantage probe counts", async () => {
    const r = await readAll(plain.pool);
    assert.equal(r.node?.name, "hive-1");
    assert.equal(r.node?.blockIntervalMs, 3000);
    assert.equal(r.node?.sampleTime?.toISOString(), at(20).toISOString());
    assert.equal(r.node?.lagBlocks, 14);
    assert.equal(r.node?.headAgeMs, 9_000);
    assert.equal(r.node?.ephemeralInUse, 3_000);
    assert.equal(r.node?.samples, 3);
    assert.equal(r.node?.p95, 29);
    assert.deepEqual(r.top, { ip: "203.0.113.7", conns: 180 });
    assert.equal(r.endpoint?.name, "alerts endpoint");
    assert.deepEqual(
      r.endpoint?.vantages.map((v) => [v.vantageName, v.probes, v.okProbes]),
      [
        ["server:r0", 3, 0],
        ["server:r1", 3, 3],
        ["server:r2", 3, 3],
      ],
    );
    assert.equal(r.endpoint?.p95Ms, 300);
  });

  test("TimescaleDB mode answers the same", async () => {
    assert.deepEqual(await readAll(ts.sql), await readAll(plain.pool));
  });
});
