// A round's window sums from the running totals (settled side) plus the rows from the cut (rest) equal
// each window summed whole from the rollups: rounds every 5 minutes across an hour, then a round whose
// cut went a day back (late probes), then steady again.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import {
  ensureVantagePoint,
  rollProbeRankDays,
  rollProbeRankHours,
  sumProbeRankWindows,
  upsertProbeRank5m,
  type ProbeRankSums,
} from "@rpcpulse/db/directory";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { addSample, emptySummary } from "@rpcpulse/prober";
import { FIVE_MIN_MS, floorTo, HOUR_MS } from "../src/directory/rank-rollups.js";
import { sumWindowsAroundPass, windowParts } from "../src/directory/rank-window-sums.js";

const DAY = 24 * HOUR_MS;
const DAY0 = Date.UTC(2026, 10, 20);
const END = DAY0 + 3 * DAY;
const SPANS = [HOUR_MS, DAY, 7 * DAY, 30 * DAY];
const ENDPOINTS = [randomUUID(), randomUUID()];

let db: TestDatabase;
before(async () => {
  db = await createTestDatabase();
  const vp = (await ensureVantagePoint(db.pool, { name: "server:eu", region: "eu", kind: "server" })).id;
  const rows = [];
  for (let at = DAY0, k = 0; at < END; at += FIVE_MIN_MS, k++) {
    for (const [e, endpointId] of ENDPOINTS.entries()) {
      const s = emptySummary();
      for (let i = 0; i < 2 + ((k + e) % 5); i++) {
        const ok = (k + i) % 13 !== 0;
        const sample = {
          at: at + i * 1_000,
          ok,
          answered: true,
          answeredError: !ok,
          rateLimited: false,
          ttfbMs: ok ? 20 + ((k * 7 + i) % 300) : null,
          lagBlocks: ok ? (k + i) % 4 : null,
          headBlock: null,
          headAgeMs: null,
        };
        addSample(s, sample, { lagging: k % 6 === 0, stale: false, regression: i === 1 && k % 17 === 0 });
      }
      rows.push({ endpointId, vantagePointId: vp, bucket: new Date(at), ...s });
    }
  }
  await upsertProbeRank5m(db.pool, rows);
  await rollProbeRankHours(db.pool, { from: new Date(DAY0), to: new Date(END) });
  await rollProbeRankDays(db.pool, { from: new Date(DAY0), to: new Date(END) });
});
after(async () => {
  await db?.drop();
});

/** Every sum of a window's rows, by endpoint, in a comparable order. */
function sums(rows: readonly ProbeRankSums[]): Array<[string, number[]]> {
  return rows
    .map((r): [string, number[]] => [
      r.endpointId,
      [r.probes, r.ok, r.answeredError, r.ttfbN, r.lagN, r.lagSum, r.lagging, r.headRegressions, ...r.ttfb, ...r.lag],
    ])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

async function assertRound(now: number, cutAt: number, label: string): Promise<void> {
  const watermark = floorTo(now - 60_000, FIVE_MIN_MS);
  const parts = SPANS.map((ms) => windowParts(ms, now, watermark));
  const cut = {
    fiveFrom: new Date(cutAt),
    hourFrom: new Date(floorTo(cutAt, HOUR_MS)),
    dayFrom: new Date(floorTo(cutAt, DAY)),
  };
  const got = await sumWindowsAroundPass(db.pool, ENDPOINTS, parts, SPANS, cut).rest();
  const whole = await sumProbeRankWindows(
    db.pool,
    parts.map((p) => ({ endpointIds: ENDPOINTS, ...p })),
  );
  whole.forEach((w, i) => {
    assert.ok(w.length === ENDPOINTS.length, `${label}: window ${i} has rows`);
    assert.deepEqual(sums(got[i] ?? []), sums(w), `${label}: window ${SPANS[i]! / HOUR_MS} h`);
  });
}

test("kept totals plus the rows from the cut make each window, round after round and after a cut back", async () => {
  const start = END - 2 * HOUR_MS + 2 * 60_000;
  for (let now = start; now <= start + 70 * 60_000; now += FIVE_MIN_MS) {
    await assertRound(now, floorTo(now - FIVE_MIN_MS, FIVE_MIN_MS), new Date(now).toISOString());
  }
  const now = start + 75 * 60_000;
  await assertRound(now, DAY0 + DAY + 7 * HOUR_MS + 35 * 60_000, "cut a day back");
  await assertRound(now + FIVE_MIN_MS, floorTo(now, FIVE_MIN_MS), "steady again");
});
