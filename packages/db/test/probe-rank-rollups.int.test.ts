// Ranking rollups (migration 0019) in both storage modes: hypertables in TimescaleDB mode (PGlite),
// plain tables otherwise; the same 5-minute rows give the same hourly rows and window sums, a rewrite
// replaces a bucket instead of adding to it, and rows that do not fit are refused.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import {
  ensureVantagePoint,
  pruneProbeRankRollups,
  RANK_LAG_BUCKETS,
  RANK_TTFB_BUCKETS,
  rollProbeRankHours,
  sumProbeRankWindow,
  upsertProbeRank5m,
  type ProbeRankBucket,
  type SqlClient,
} from "../src/index.js";
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
  await pruneProbeRankRollups(sql, { fiveMinBefore: new Date(T0 + 3_600_000), hourBefore: new Date(T0) });
  const left = (await sql.query("SELECT count(*)::int AS n FROM probe_rank_5m")).rows[0] as { n: number };
  return { hours, window, left: left.n };
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
      ["probe_rank_1h", "probe_rank_5m"],
    );
    const jobs = await ts.sql.query(
      `SELECT hypertable_name FROM timescaledb_information.jobs
       WHERE proc_name = 'policy_retention' AND hypertable_name LIKE 'probe_rank_%'`,
    );
    assert.equal(jobs.rows.length, 2);
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
