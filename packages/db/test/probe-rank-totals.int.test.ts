// The running window totals (probe_rank_totals) moved round after round must equal the same ranges
// summed again from the rollups: windows sliding by 5 minutes and by hours, a start moved back, a range
// ending before rows it had added that were rewritten since (late probes), an endpoint joining later.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import {
  ensureVantagePoint,
  RANK_LAG_BUCKETS,
  RANK_TTFB_BUCKETS,
  rollProbeRankDays,
  rollProbeRankHours,
  sumProbeRankTotals,
  sumProbeRankWindows,
  upsertProbeRank5m,
  type ProbeRankBucket,
  type ProbeRankSums,
  type ProbeRankTotalRange,
} from "../src/directory/index.js";
import { createTestDatabase, type TestDatabase } from "../src/testing.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const DAY0 = Date.UTC(2026, 10, 20);
const END = DAY0 + 3 * DAY;
const ENDPOINTS = [randomUUID(), randomUUID()];

/** A 5-minute bucket whose counts differ from bucket to bucket (a bucket missed or counted twice shows). */
function bucket(endpointId: string, vp: string, at: number, k: number): ProbeRankBucket {
  const probes = 3 + (k % 7);
  const ttfb = new Array<number>(RANK_TTFB_BUCKETS).fill(0);
  ttfb[k % RANK_TTFB_BUCKETS] = probes - 1;
  const lag = new Array<number>(RANK_LAG_BUCKETS).fill(0);
  lag[(k * 3) % RANK_LAG_BUCKETS] = probes - 1;
  return {
    endpointId,
    vantagePointId: vp,
    bucket: new Date(at),
    probes,
    ok: probes - 1,
    answered: probes,
    answeredError: 1,
    rateLimited: k % 2,
    errors: { timeout: 1, connect: 0, http: 0, rpc: 0, other: 0 },
    ttfbN: probes - 1,
    ttfbSum: (probes - 1) * (k % 50) + 0.25,
    lagN: probes - 1,
    lagSum: k % 3,
    lagging: k % 4 === 0 ? 1 : 0,
    stale: k % 9 === 0 ? 1 : 0,
    headRegressions: k % 5 === 0 ? 1 : 0,
    ttfb,
    lag,
  };
}

/** Rows by (endpoint, vantage point) with every sum, in a comparable order. */
function byKey(rows: readonly ProbeRankSums[]): Array<[string, number[]]> {
  return rows
    .map((r): [string, number[]] => [
      `${r.endpointId}/${r.vantagePointId}/${r.region}/${r.kind}`,
      [
        r.probes,
        r.ok,
        r.answered,
        r.answeredError,
        r.rateLimited,
        ...Object.values(r.errors),
        r.ttfbN,
        r.ttfbSum,
        r.lagN,
        r.lagSum,
        r.lagging,
        r.stale,
        r.headRegressions,
        ...r.ttfb,
        ...r.lag,
      ],
    ])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

let db: TestDatabase;
let vps: string[];
before(async () => {
  db = await createTestDatabase();
  vps = [
    (await ensureVantagePoint(db.sql, { name: "server:eu", region: "eu", kind: "server" })).id,
    (await ensureVantagePoint(db.sql, { name: "server:us", region: "us", kind: "server" })).id,
  ];
  // Three days of 5-minute buckets; the second vantage point of the second endpoint only from day 2.
  const rows: ProbeRankBucket[] = [];
  for (let at = DAY0, k = 0; at < END; at += 5 * MIN, k++) {
    for (const [e, endpointId] of ENDPOINTS.entries()) {
      for (const [v, vp] of vps.entries()) {
        if (e === 1 && v === 1 && at < DAY0 + DAY) continue;
        rows.push(bucket(endpointId, vp, at, k + 11 * e + 5 * v));
      }
    }
  }
  await upsertProbeRank5m(db.sql, rows);
  await rollProbeRankHours(db.sql, { from: new Date(DAY0), to: new Date(END) });
  await rollProbeRankDays(db.sql, { from: new Date(DAY0), to: new Date(END) });
});
after(async () => {
  await db?.drop();
});

/** The totals of `ranges` read as windows (one window per range) against the same ranges summed anew. */
async function assertTotals(endpointIds: readonly string[], ranges: readonly ProbeRankTotalRange[], label: string) {
  const kept = await sumProbeRankTotals(
    db.pool,
    endpointIds,
    ranges,
    ranges.map((r) => [r.key]),
  );
  const fresh = await sumProbeRankWindows(
    db.pool,
    ranges.map((r) => {
      const to = new Date(Math.max(r.from.getTime(), r.to.getTime()));
      const epoch = new Date(0);
      return r.table === "probe_rank_1h"
        ? { endpointIds, hourFrom: r.from, hourTo: to, fiveFrom: epoch, fiveTo: epoch }
        : { endpointIds, hourFrom: epoch, hourTo: epoch, fiveFrom: r.from, fiveTo: to };
    }),
  );
  ranges.forEach((r, i) => assert.deepEqual(byKey(kept[i] ?? []), byKey(fresh[i] ?? []), `${label}: ${r.key}`));
}

const hours = (key: string, from: number, to: number): ProbeRankTotalRange => ({
  key,
  table: "probe_rank_1h",
  from: new Date(from),
  to: new Date(to),
});
const fives = (key: string, from: number, to: number): ProbeRankTotalRange => ({
  key,
  table: "probe_rank_5m",
  from: new Date(from),
  to: new Date(to),
});

test("kept totals moved round after round equal the ranges summed again", async () => {
  // A 1 h window of 5-minute buckets and a 24 h window of hours, rounds every 5 minutes for 3 hours.
  for (let now = DAY0 + DAY + 10 * HOUR; now <= DAY0 + DAY + 13 * HOUR; now += 5 * MIN) {
    const cut = Math.floor((now - 5 * MIN) / (5 * MIN)) * 5 * MIN;
    await assertTotals(
      ENDPOINTS,
      [fives("1h", now - HOUR, cut), hours("24h", Math.ceil((now - DAY) / HOUR) * HOUR, Math.floor(cut / HOUR) * HOUR)],
      new Date(now).toISOString(),
    );
  }
  // The start moved back, the end moved on (a 30 h window for once), then the 24 h one again.
  await assertTotals(ENDPOINTS, [hours("24h", DAY0 + 7 * HOUR, DAY0 + DAY + 14 * HOUR)], "start back");
  await assertTotals(ENDPOINTS, [hours("24h", DAY0 + DAY + 14 * HOUR, DAY0 + 2 * DAY + 14 * HOUR)], "jump");
});

test("a range ending before rows rewritten since it added them is summed again", async () => {
  await assertTotals(ENDPOINTS, [hours("7d", DAY0 + HOUR, DAY0 + 2 * DAY + 20 * HOUR)], "before");
  // Late probes: a bucket of the second day rewritten, its hour and day rolled again; the rollup pass's
  // cut (and so the range's end) moves back before it.
  const late = DAY0 + DAY + 15 * HOUR + 10 * MIN;
  const changed = bucket(ENDPOINTS[0]!, vps[0]!, late, 3);
  changed.probes += 40;
  await upsertProbeRank5m(db.sql, [changed]);
  await rollProbeRankHours(db.sql, { from: new Date(DAY0 + DAY + 15 * HOUR), to: new Date(DAY0 + DAY + 16 * HOUR) });
  await rollProbeRankDays(db.sql, { from: new Date(DAY0 + DAY), to: new Date(DAY0 + 2 * DAY) });
  await assertTotals(ENDPOINTS, [hours("7d", DAY0 + HOUR, DAY0 + DAY + 15 * HOUR)], "cut back");
  // The next round's range ends after the rewritten hour again: it is read as it is now.
  await assertTotals(ENDPOINTS, [hours("7d", DAY0 + 2 * HOUR, DAY0 + 2 * DAY + 21 * HOUR)], "after");
});

test("an endpoint new to a range is summed in full beside the others moved", async () => {
  await assertTotals([ENDPOINTS[0]!], [fives("late-joiner", DAY0 + 2 * DAY, DAY0 + 2 * DAY + HOUR)], "one");
  await assertTotals(
    ENDPOINTS,
    [fives("late-joiner", DAY0 + 2 * DAY + 5 * MIN, DAY0 + 2 * DAY + HOUR + 5 * MIN)],
    "both",
  );
  // An empty range (the cut before the start) holds nothing, and the next one is summed again.
  await assertTotals(ENDPOINTS, [fives("late-joiner", DAY0 + 2 * DAY + HOUR, DAY0 + 2 * DAY + HOUR)], "empty");
  await assertTotals(ENDPOINTS, [fives("late-joiner", DAY0 + 2 * DAY + HOUR, DAY0 + 2 * DAY + 2 * HOUR)], "again");
});
