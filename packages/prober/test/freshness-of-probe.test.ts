import assert from "node:assert/strict";
import { test } from "node:test";
import { classifyFreshness, freshnessLimits, type FreshnessInput } from "../src/rank/freshness.js";
import { freshnessOfProbe } from "../src/rank/freshness.js";
import { seededRandom } from "@rpcpulse/config/testing";

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
const randomFrom = seededRandom;

/** Probes with ties in time and head, unknown heads, reported head ages, failures, and any order. */
function probes(rand: () => number, n: number): FreshnessInput[] {
  return Array.from({ length: n }, () => {
    const ok = rand() < 0.8;
    const head = rand() < 0.15 ? null : 100 + Math.floor(rand() * 5);
    return {
      at: Math.floor(rand() * 100) * 3_000,
      ok,
      lagBlocks: rand() < 0.2 ? null : Math.floor(rand() * 8),
      headBlock: head,
      headAgeMs: rand() < 0.3 ? Math.floor(rand() * 200_000) - 2_000 : null,
    };
  });
}

test("freshnessOfProbe equals classifyFreshness at every probe", () => {
  const rand = randomFrom(13);
  let stale = 0;
  for (const blockIntervalMs of [1_000, 3_000, 12_000]) {
    const limits = freshnessLimits(blockIntervalMs);
    for (let round = 0; round < 300; round++) {
      const samples = probes(rand, 1 + Math.floor(rand() * 60));
      const all = classifyFreshness(samples, limits, blockIntervalMs);
      all.forEach((f) => (stale += f.stale ? 1 : 0));
      samples.forEach((_, i) => {
        assert.deepEqual(
          freshnessOfProbe(samples, i, limits, blockIntervalMs),
          all[i],
          `interval ${blockIntervalMs}, round ${round}, probe ${i}`,
        );
      });
    }
  }
  assert.ok(stale > 100, `the cases cover stale probes (${stale})`);
  const stuck = freshnessOfProbe(
    [
      { at: 0, ok: true, lagBlocks: 0, headBlock: 10 },
      { at: 60_000, ok: true, lagBlocks: 0, headBlock: 10 },
    ],
    1,
    freshnessLimits(3_000),
    3_000,
  );
  assert.equal(stuck.stale, true, "a head that has not moved for a minute is stale");
});
