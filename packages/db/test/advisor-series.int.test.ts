// The advisor's time-series reads (telemetry window, target-metric series) in both storage modes:
// plain PostgreSQL and TimescaleDB (PGlite), on the same rows, with the same answers.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getAdvisorMetricSeries, loadAdvisorWindow } from "@rpcpulse/db/advisor";
import { insertNodeSamples, insertRemoteIps, type NodeSampleInput } from "@rpcpulse/db/fleet";
import { refreshRollups } from "@rpcpulse/db/platform";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  createTestDatabase,
  createTimescaleTestDatabase,
  type TestDatabase,
  type TimescaleTestDatabase,
} from "../src/testing.js";

const NODE = "00000000-0000-4000-8000-00000000ad01";
const MIN = 60_000;
// A fixed, whole-hour start in the past (rollups only cover closed buckets).
const START = Date.UTC(2026, 0, 5, 8, 0, 0);
const COUNT = 240; // one sample per minute for 4 h

async function arrange(sql: SqlClient): Promise<void> {
  const samples: NodeSampleInput[] = [];
  const ips: { time: Date; nodeId: string; ip: string; conns: number }[] = [];
  for (let i = 0; i < COUNT; i++) {
    const time = new Date(START + i * MIN);
    // Every 10th sample counted no remote IP at all; every 25th did not read the remote-IP source.
    const distinct = i % 25 === 0 ? null : i % 10 === 0 ? 0 : 3;
    samples.push({
      time,
      nodeId: NODE,
      timeWaitOut: 100 + (i % 7),
      ephemeralInUse: 1000 + i,
      ephemeralRange: 28_232,
      totalMs: 10 + (i % 5),
      distinctRemoteIps: distinct,
      peers: i % 3 === 0 ? null : 20,
    });
    if (distinct) {
      ips.push({ time, nodeId: NODE, ip: "192.0.2.7", conns: 50 + (i % 4) });
      ips.push({ time, nodeId: NODE, ip: "192.0.2.8", conns: 2 });
      ips.push({ time, nodeId: NODE, ip: "2001:db8::1", conns: 1 });
    }
  }
  await insertNodeSamples(sql, samples);
  await insertRemoteIps(sql, ips);
  await refreshRollups(
    sql,
    { from: new Date(START), to: new Date(START + COUNT * MIN) },
    new Date(START + 10 * 3_600_000),
  );
}

type Mode = { name: string; sql: () => SqlClient };

async function checks(mode: Mode) {
  const sql = mode.sql();
  const windowEnd = new Date(START + COUNT * MIN);
  const window = await loadAdvisorWindow(sql, {
    nodeId: NODE,
    from: new Date(windowEnd.getTime() - 30 * MIN),
    to: windowEnd,
  });
  assert.equal(window.samples.length, 30, mode.name);
  assert.ok(
    window.samples.every((s, i) => i === 0 || s.time > window.samples[i - 1]!.time),
    "oldest first",
  );
  assert.equal(window.samples[0]!.timeWaitOut, 100 + (210 % 7));
  assert.equal(window.samples[0]!.peers, null /* 210 is a multiple of 3: no peer count */);
  assert.ok(window.remoteIps.length > 0);
  assert.deepEqual(Object.keys(window.remoteIps[0]!).sort(), ["connections", "ip", "time"]);
  assert.ok(window.remoteIps.some((r) => r.ip === "2001:db8::1"));
  // Cut to the newest samples: remote IPs follow the samples kept.
  const cut = await loadAdvisorWindow(sql, { nodeId: NODE, from: new Date(START), to: windowEnd, maxSamples: 5 });
  assert.equal(cut.samples.length, 5);
  assert.equal(cut.samples[0]!.time.getTime(), START + 235 * MIN);
  assert.ok(cut.remoteIps.every((r) => r.time.getTime() >= START + 235 * MIN));

  // Short range: raw samples.
  const hourFrom = new Date(START + 60 * MIN);
  const hourTo = new Date(START + 120 * MIN);
  const tw = await getAdvisorMetricSeries(sql, { nodeId: NODE, metric: "tw_outbound", from: hourFrom, to: hourTo });
  assert.equal(tw.resolution, "raw");
  assert.equal(tw.points.length, 60);
  assert.deepEqual(
    tw.points.slice(0, 3).map((p) => p.value),
    [100 + (60 % 7), 100 + (61 % 7), 100 + (62 % 7)],
  );
  const ratio = await getAdvisorMetricSeries(sql, {
    nodeId: NODE,
    metric: "ephemeral_ratio",
    from: hourFrom,
    to: hourTo,
  });
  assert.ok(Math.abs(ratio.points[0]!.value - 1060 / 28_232) < 1e-9);
  const top = await getAdvisorMetricSeries(sql, {
    nodeId: NODE,
    metric: "top_ip_connections",
    from: hourFrom,
    to: hourTo,
  });
  // i = 75 and 100 (read nothing) are left out; i = 70, 80, 90, 110 (nobody connected) count 0.
  assert.equal(top.points.length, 58);
  const at = (i: number) => top.points.find((p) => p.time.getTime() === START + i * MIN)?.value;
  assert.equal(at(70), 0);
  assert.equal(at(75), undefined);
  assert.equal(at(71), 50 + (71 % 4));
  const peers = await getAdvisorMetricSeries(sql, { nodeId: NODE, metric: "peers", from: hourFrom, to: hourTo });
  assert.equal(peers.points.length, 40, "samples without a value are left out");

  // Long range: the 1-minute rollups (one sample per minute, so the same values).
  const all = { nodeId: NODE, from: new Date(START), to: windowEnd };
  const twLong = await getAdvisorMetricSeries(sql, { ...all, metric: "tw_outbound" });
  assert.equal(twLong.resolution, "1m");
  assert.equal(twLong.points.length, COUNT);
  assert.deepEqual(
    twLong.points.map((p) => p.value),
    Array.from({ length: COUNT }, (_, i) => 100 + (i % 7)),
  );
  const p95 = await getAdvisorMetricSeries(sql, { ...all, metric: "latency_p95_ms" });
  assert.equal(p95.resolution, "1m");
  assert.ok(
    p95.points.every((p) => p.value >= 10 && p.value <= 14),
    "estimated within the bucket's min..max",
  );
  // The busiest-IP series has no rollup: it reads raw rows even over a long range.
  const topLong = await getAdvisorMetricSeries(sql, { ...all, metric: "top_ip_connections" });
  assert.equal(topLong.resolution, "raw");
  return { window: window.samples.length, tw: twLong.points.map((p) => p.value), top: topLong.points.length };
}

describe("advisor time-series reads", () => {
  let plain: TestDatabase;
  let ts: TimescaleTestDatabase;
  before(async () => {
    plain = await createTestDatabase();
    ts = await createTimescaleTestDatabase();
    await arrange(plain.sql);
    await arrange(ts.sql);
  });
  after(async () => {
    await plain?.drop();
    await ts?.close();
  });

  test("plain PostgreSQL and TimescaleDB answer the same", async () => {
    const a = await checks({ name: "plain", sql: () => plain.sql });
    const b = await checks({ name: "timescale", sql: () => ts.sql });
    assert.deepEqual(a, b);
  });

  test("bad parameters are refused before any SQL", async () => {
    await assert.rejects(
      getAdvisorMetricSeries(plain.sql, {
        nodeId: NODE,
        metric: "nope" as "peers",
        from: new Date(1),
        to: new Date(2),
      }),
    );
    await assert.rejects(loadAdvisorWindow(plain.sql, { nodeId: NODE, from: new Date(2), to: new Date(1) }));
    await assert.rejects(loadAdvisorWindow(plain.sql, { nodeId: "x", from: new Date(1), to: new Date(2) }));
  });
});
