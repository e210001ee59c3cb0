// Ranking rollups (migrations 0019, 0022) in both storage modes: hypertables in TimescaleDB mode (PGlite),
// plain tables otherwise; the same 5-minute rows give the same hourly and daily rows and window sums
// (a window read through its whole days equals the same window read hour by hour), a rewrite replaces
// a bucket instead of adding to it, and rows that do not fit are refused.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import {
  ensureVantagePoint,
  pruneProbeRankRollups,
  RANK_LAG_BUCKETS,
  RANK_TTFB_BUCKETS,
  rollProbeRankDays,
  rollProbeRankHours,
  sumProbeRankWindow,
  upsertProbeRank5m,
  type ProbeRankBucket,
} from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  createTestDatabase,
  createTimescaleTestDatabase,
  type TestDatabase,
  type TimescaleTestDatabase,
} from "../src/testing.js";

const T0 = Date.UTC(2026, 10, 20, 10, 0);
const ENDPOINT = randomUUID();

function bucket(vp: string, minutes: number, probes: number, ttfbBucket: number): ProbeRankBucket {
  const ttfb = new Array<number>(RANK_TTFB_BUCKETS).fill(0);
  ttfb[ttfbBucket] = probes - 1;
  const lag = new Array<number>(RANK_LAG_BUCKETS).fill(0);
  lag[0] = probes - 1;
  return {
    endpointId: ENDPOINT,
    vantagePointId: vp,
    bucket: new Date(T0 + minutes * 60_000),
    probes,
    ok: probes - 1,
    answered: probes,
    answeredError: 1,
    rateLimited: 0,
    errors: { timeout: 0, connect: 0, http: 1, rpc: 0, other: 0 },
    ttfbN: probes - 1,
    ttfbSum: (probes - 1) * 40,
    lagN: probes - 1,
    lagSum: 0,
    lagging: 0,
    stale: 0,
    headRegressions: minutes === 5 ? 1 : 0,
    ttfb,
    lag,
  };
}

async function scenario(sql: SqlClient) {
  const vp = (await ensureVantagePoint(sql, { name: "server:eu", region: "eu", kind: "server" })).id;
  // 10:00 .. 11:55 every 5 minutes, 10 probes each; 10:05 written twice (the second replaces it).
  const rows = Array.from({ length: 24 }, (_, i) => bucket(vp, i * 5, 10, 22));
  await upsertProbeRank5m(sql, rows);
  await upsertProbeRank5m(sql, [bucket(vp, 5, 12, 23)]);
  const hours = await rollProbeRankHours(sql, { from: new Date(T0), to: new Date(T0 + 2 * 3_600_000) });
  const window = await sumProbeRankWindow(sql, {
    endpointIds: [ENDPOINT],
    hourFrom: new Date(T0),
    hourTo: new Date(T0 + 3_600_000),
    fiveFrom: new Date(T0 + 3_600_000),
    fiveTo: new Date(T0 + 3_600_000 + 30 * 60_000),
  });
  // The day of T0 (10:00 and 11:00 rolled), read once as its day row and once hour by hour.
  const day = Date.UTC(2026, 10, 20);
  const days = await rollProbeRankDays(sql, { from: new Date(day), to: new Date(day + 86_400_000) });
  const span = { endpointIds: [ENDPOINT], hourFrom: new Date(day), hourTo: new Date(day + 86_400_000 + 3_600_000) };
  const edge = { fiveFrom: span.hourTo, fiveTo: span.hourTo };
  const byDays = await sumProbeRankWindow(sql, {
    ...span,
    ...edge,
    dayFrom: new Date(day),
    dayTo: new Date(day + 86_400_000),
  });
  const byHours = await sumProbeRankWindow(sql, { ...span, ...edge });
  await pruneProbeRankRollups(sql, { fiveMinBefore: new Date(T0 + 3_600_000), hourBefore: new Date(T0) });
  const left = (await sql.query("SELECT count(*)::int AS n FROM probe_rank_5m")).rows[0] as { n: number };
  const daysLeft = (await sql.query("SELECT count(*)::int AS n FROM probe_rank_1d")).rows[0] as { n: number };
  return { hours, window, left: left.n, days, byDays, byHours, daysLeft: daysLeft.n };
}

describe("ranking rollups in both storage modes", () => {
  let ts: TimescaleTestDatabase;
  let db: TestDatabase;
  before(async () => {
    ts = await createTimescaleTestDatabase();
    db = await createTestDatabase();
  });
  after(async () => {
    await ts?.close();
    await db?.drop();
  });

  test("Timescale mode: the ranking rollups are hypertables with retention", async () => {
    const { rows } = await ts.sql.query(
      `SELECT hypertable_name FROM timescaledb_information.hypertables
       WHERE hypertable_name LIKE 'probe_rank_%' ORDER BY 1`,
    );
    assert.deepEqual(
      (rows as Array<{ hypertable_name: string }>).map((r) => r.hypertable_name),
      ["probe_rank_1d", "probe_rank_1h", "probe_rank_5m"],
    );
    const jobs = await ts.sql.query(
      `SELECT hypertable_name FROM timescaledb_information.jobs
       WHERE proc_name = 'policy_retention' AND hypertable_name LIKE 'probe_rank_%'`,
    );
    assert.equal(jobs.rows.length, 3);
  });

  test("same hours and window sums in both modes; a rewrite replaces its bucket", async () => {
    const plain = await scenario(db.sql);
    const timescale = await scenario(ts.sql);
    assert.deepEqual(
      timescale.window,
      plain.window.map((w) => ({ ...w, vantagePointId: timescale.window[0]!.vantagePointId })),
    );
    assert.equal(plain.hours, 2);
    const w = plain.window[0]!;
    // 11 hour-rows' buckets of 10 probes + the rewritten 10:05 (12) + six 5-minute buckets of 10.
    assert.equal(w.probes, 11 * 10 + 12 + 6 * 10);
    assert.equal(w.errors.http, 18);
    assert.equal(w.ttfb[22], 11 * 9 + 6 * 9);
    assert.equal(w.ttfb[23], 11);
    assert.equal(w.headRegressions, 1);
    assert.equal(w.region, "eu");
    assert.equal(plain.left, 12, "5-minute buckets before the cut pruned");
    assert.equal(timescale.left, 12);
    for (const mode of [plain, timescale]) {
      assert.equal(mode.days, 1);
      assert.deepEqual(mode.byDays, mode.byHours, "a window through its whole days = the same hours");
      // Both hours of the day: 24 buckets of 10 probes, 10:05 rewritten with 12.
      assert.equal(mode.byDays[0]!.probes, 23 * 10 + 12);
      assert.equal(mode.daysLeft, 0, "days before the cut pruned with the hours");
    }
  });

  test("a row that does not fit is refused before anything is written", async () => {
    const vp = (await ensureVantagePoint(db.sql, { name: "server:us", region: "us", kind: "server" })).id;
    const bad = { ...bucket(vp, 0, 10, 1), ttfb: [1, 2, 3] };
    await assert.rejects(() => upsertProbeRank5m(db.sql, [bad]));
    const neg = bucket(vp, 0, 10, 1);
    neg.lagging = -1;
    await assert.rejects(() => upsertProbeRank5m(db.sql, [bucket(vp, 5, 10, 1), neg]));
    const { rows } = await db.sql.query("SELECT count(*)::int AS n FROM probe_rank_5m WHERE vantage_point_id = $1", [
      vp,
    ]);
    assert.equal((rows[0] as { n: number }).n, 0);
  });
});
