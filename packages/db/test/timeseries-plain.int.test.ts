import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestDatabase, type TestDatabase } from "../src/testing.js";
import { NODE_1, NODE_2 } from "./fixtures.js";
import { runScenario, type ScenarioResult } from "./scenario.js";

describe("time series, plain PostgreSQL mode", () => {
  let db: TestDatabase;
  let r: ScenarioResult;
  before(async () => {
    db = await createTestDatabase();
    r = await runScenario(db.sql);
  });
  after(() => db.drop());

  test("inserts are idempotent on replay", () => {
    assert.deepEqual(r.counts, {
      inserted: 7,
      replayed: 0,
      late: 1,
      probesInserted: 5,
      probesReplayed: 0,
      ipsInserted: 3,
      ipsReplayed: 0,
    });
  });

  test("raw series returns every sample as stored", () => {
    assert.equal(r.series.raw.resolution, "raw");
    assert.equal(r.series.raw.points.length, 5);
    const p = r.series.raw.points[2]!;
    assert.equal(p.time.toISOString(), "2026-01-05T10:59:40.000Z");
    assert.equal(p.establishedAvg, 30);
    assert.equal(p.totalMsP95, 120);
    assert.equal(p.diskTotal, 8_000_000_000_000);
    assert.equal(p.clockSkewMsMax, 0);
  });

  test("1-minute rollup matches hand-computed aggregates", () => {
    const [a, b] = r.series.m1.points;
    assert.equal(r.series.m1.points.length, 2);
    assert.ok(a && b);
    assert.equal(a.time.toISOString(), "2026-01-05T10:59:00.000Z");
    assert.equal(a.samples, 3);
    assert.equal(a.establishedAvg, 20);
    assert.equal(a.establishedMax, 30);
    assert.equal(a.timeWaitAvg, 40);
    assert.equal(a.listenOverflows, 3);
    assert.equal(a.rpcSamples, 3);
    assert.ok(Math.abs((a.totalMsAvg ?? 0) - 154 / 3) < 1e-9);
    assert.equal(a.totalMsMin, 4);
    assert.equal(a.totalMsMax, 120);
    // histogram: 4 -> <=5, 30 -> <=50, 120 -> <=250; rank 2.85 in (100, min(250, max 120)]
    assert.ok(Math.abs((a.totalMsP95 ?? 0) - 117) < 1e-9);
    assert.equal(a.headBlock, 102);
    assert.equal(a.finalizedBlock, 82);
    assert.ok(Math.abs((a.lagBlocksAvg ?? 0) - 1 / 3) < 1e-9);
    assert.equal(a.lagBlocksMax, 1);
    assert.equal(a.syncingSamples, 1);
    assert.equal(a.peersMin, 8);
    assert.equal(a.peersAvg, 9);
    assert.equal(a.cpuPctAvg, 20);
    assert.equal(a.memAvailableMin, 800);
    assert.equal(a.clockSkewMsMax, 5);
    assert.equal(a.fdLimit, 1_048_576);
    assert.equal(a.closeWaitMax, 2);

    assert.equal(b.time.toISOString(), "2026-01-05T11:00:00.000Z");
    assert.equal(b.samples, 2);
    assert.equal(b.establishedAvg, 45);
    assert.equal(b.listenOverflows, 5);
    assert.equal(b.rpcSamples, 1);
    assert.equal(b.totalMsAvg, 7);
    assert.equal(b.totalMsP95, 7);
    assert.equal(b.lagBlocksAvg, 2);
    assert.equal(b.peersAvg, 11.5);
    assert.equal(b.syncingSamples, 0);
    assert.equal(b.clockSkewMsMax, 20);
    assert.equal(b.memAvailableMin, 600);
  });

  test("1-hour rollup re-aggregates the minutes", () => {
    const [a, b] = r.series.h1.points;
    assert.equal(r.series.h1.points.length, 2);
    assert.ok(a && b);
    assert.equal(a.time.toISOString(), "2026-01-05T10:00:00.000Z");
    assert.equal(a.samples, 3);
    assert.equal(a.establishedAvg, 20);
    assert.equal(b.time.toISOString(), "2026-01-05T11:00:00.000Z");
    assert.equal(b.samples, 2);
    assert.equal(b.establishedMax, 50);
    assert.equal(b.listenDrops, 5);
    assert.equal(r.series.node2m1.points.map((p) => p.establishedAvg).join(","), "9,1,2");
  });

  test("latest sample per node (late rows do not move it back)", () => {
    assert.deepEqual(
      r.latest.map((s) => [s.nodeId, s.time.toISOString(), s.tcpEstablished]),
      [
        [NODE_1, "2026-01-05T11:00:30.000Z", 50],
        [NODE_2, "2026-01-05T11:00:10.000Z", 2],
      ],
    );
    assert.equal(r.latest[0]?.totalMs, 7);
    assert.equal(r.latest[0]?.syncing, false);
    assert.equal(r.latest[1]?.cpuPct, null);
  });

  test("probe series: availability, latency, p95, per vantage point", () => {
    assert.equal(r.probes.allRaw.points.length, 5);
    assert.deepEqual(
      r.probes.allRaw.points.map((p) => [p.okCount, p.totalMsP95]),
      [
        [1, 100],
        [0, null],
        [1, 300],
        [1, 200],
        [0, null],
      ],
    );
    const [m, n] = r.probes.all1m.points;
    assert.ok(m && n);
    assert.equal(m.probes, 4);
    assert.equal(m.okCount, 3);
    assert.equal(m.availability, 0.75);
    assert.equal(m.totalMsAvg, 200);
    assert.equal(m.dnsMsAvg, 5);
    assert.equal(m.totalMsP95, 292.5);
    assert.equal(m.headBlockMax, 102);
    assert.equal(m.responseBytesSum, 1400);
    assert.equal(n.probes, 1);
    assert.equal(n.rateLimitedCount, 1);
    assert.equal(n.availability, 0);
    assert.equal(n.totalMsAvg, null);
    assert.equal(r.probes.vp1m.points[0]?.probes, 2);
    assert.equal(r.probes.vp1m.points[0]?.totalMsP95, 295);
    assert.deepEqual(
      r.probes.all1h.points.map((p) => p.probes),
      [4, 1],
    );
  });

  test("error messages are bounded", async () => {
    const { rows } = await db.pool.query("SELECT max(char_length(error_message)) AS len FROM probe_results");
    assert.equal(rows[0].len, 512);
  });

  test("top remote IPs", () => {
    assert.deepEqual(r.topIps, [
      { ip: "2001:db8::1", maxConns: 9, avgConns: 9, samples: 1 },
      { ip: "10.0.0.1", maxConns: 7, avgConns: 6, samples: 2 },
    ]);
  });
});
