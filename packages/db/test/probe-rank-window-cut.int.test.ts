// The ranking sums each window's settled rollup rows (before the rollup pass's cut) beside the pass and
// the rest after it: for any cut, the two sides add up to the window read at once.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import {
  ensureVantagePoint,
  RANK_LAG_BUCKETS,
  RANK_TTFB_BUCKETS,
  rollProbeRankDays,
  rollProbeRankHours,
  sumProbeRankWindows,
  upsertProbeRank5m,
  type ProbeRankBucket,
  type ProbeRankSums,
} from "@rpcpulse/db/directory";
import { createTestDatabase, type TestDatabase } from "../src/testing.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const DAY0 = Date.UTC(2026, 10, 20);
const ENDPOINT = randomUUID();

/** A 5-minute bucket whose counts differ from bucket to bucket (so a bucket read twice or missed shows). */
function bucket(vp: string, at: number, k: number): ProbeRankBucket {
  const probes = 5 + (k % 7);
  const ttfb = new Array<number>(RANK_TTFB_BUCKETS).fill(0);
  ttfb[k % RANK_TTFB_BUCKETS] = probes;
  const lag = new Array<number>(RANK_LAG_BUCKETS).fill(0);
  lag[k % RANK_LAG_BUCKETS] = probes;
  return {
    endpointId: ENDPOINT,
    vantagePointId: vp,
    bucket: new Date(at),
    probes,
    ok: probes,
    answered: probes,
    answeredError: 0,
    rateLimited: k % 2,
    errors: { timeout: 0, connect: 0, http: 0, rpc: 0, other: 0 },
    ttfbN: probes,
    ttfbSum: probes * (k % 50),
    lagN: probes,
    lagSum: k % 3,
    lagging: k % 4 === 0 ? 1 : 0,
    stale: 0,
    headRegressions: k % 5 === 0 ? 1 : 0,
    ttfb,
    lag,
  };
}

/** The counts of a window's sums added over its rows (one row here: one endpoint, one vantage point). */
function total(rows: readonly ProbeRankSums[]): number[] {
  const out: number[] = [];
  for (const r of rows) {
    const values = [r.probes, r.rateLimited, r.ttfbSum, r.lagSum, r.lagging, r.headRegressions, ...r.ttfb, ...r.lag];
    values.forEach((v, i) => (out[i] = (out[i] ?? 0) + v));
  }
  return out;
}

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await db?.drop();
});

test("a window's rows before a cut and from it add up to the whole window", async () => {
  const vp = (await ensureVantagePoint(db.sql, { name: "server:eu", region: "eu", kind: "server" })).id;
  // Two days and three hours of 5-minute buckets; hours and the two days rolled from them.
  const end = DAY0 + 2 * DAY + 3 * HOUR;
  const rows = Array.from({ length: (end - DAY0) / (5 * MIN) }, (_, k) => bucket(vp, DAY0 + k * 5 * MIN, k));
  await upsertProbeRank5m(db.sql, rows);
  await rollProbeRankHours(db.sql, { from: new Date(DAY0), to: new Date(end) });
  await rollProbeRankDays(db.sql, { from: new Date(DAY0), to: new Date(DAY0 + 2 * DAY) });
  const watermark = end - 10 * MIN;
  const hourTo = DAY0 + 2 * DAY + 2 * HOUR;
  const windows = [
    // 1 h: 5-minute buckets only.
    { hourFrom: new Date(0), hourTo: new Date(0), fiveFrom: new Date(watermark - HOUR), fiveTo: new Date(watermark) },
    // Days, the hours around them and the hour being filled.
    {
      hourFrom: new Date(DAY0 + 5 * HOUR),
      hourTo: new Date(hourTo),
      dayFrom: new Date(DAY0 + DAY),
      dayTo: new Date(DAY0 + 2 * DAY),
      fiveFrom: new Date(hourTo),
      fiveTo: new Date(watermark),
    },
  ].map((w) => ({ endpointIds: [ENDPOINT], ...w }));
  const whole = await sumProbeRankWindows(db.pool, windows);
  assert.ok(whole.every((w) => w.length === 1 && w[0]!.probes > 0));
  // Steady-run cuts (inside the hour being filled), one on an hour, one a day back (a backfill's).
  for (const at of [watermark - 5 * MIN, hourTo - 20 * MIN, hourTo, DAY0 + DAY + 7 * HOUR + 35 * MIN]) {
    const cut = {
      fiveFrom: new Date(at),
      hourFrom: new Date(Math.floor(at / HOUR) * HOUR),
      dayFrom: new Date(Math.floor(at / DAY) * DAY),
    };
    const settled = await sumProbeRankWindows(db.pool, windows, { before: cut });
    const rest = await sumProbeRankWindows(db.pool, windows, { from: cut });
    whole.forEach((w, i) => {
      const sides = total([...(settled[i] ?? []), ...(rest[i] ?? [])]);
      assert.deepEqual(sides, total(w), `window ${i}, cut ${new Date(at).toISOString()}`);
    });
  }
});
