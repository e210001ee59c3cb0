import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareBeforeAfter } from "../src/index.js";
import { hodgesLehmann, lag1Autocorrelation, mannWhitneyP, reduceToBlocks } from "../src/stats/compare.js";
import { seededRandom } from "@rpcpulse/config/testing";

/** Seeded PRNG (mulberry32) and Box–Muller normals: the series are reproducible. */
function rng(seed: number) {
  const uniform = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

function iid(seed: number, n: number, mean: number, sd: number): number[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => mean + sd * r.normal());
}

/** AR(1) noise around a mean: neighbouring samples correlated like real telemetry. */
function ar1(seed: number, n: number, mean: number, sd: number, rho: number): number[] {
  const r = rng(seed);
  let x = 0;
  return Array.from({ length: n }, () => {
    x = rho * x + Math.sqrt(1 - rho * rho) * sd * r.normal();
    return mean + x;
  });
}

describe("compareBeforeAfter", () => {
  it("helped: p95 latency drops from ~200 ms to ~120 ms", () => {
    const r = compareBeforeAfter(iid(1, 180, 200, 30), iid(2, 180, 120, 30), "decrease");
    assert.equal(r.verdict, "helped");
    assert.ok(r.change! < -60 && r.change! > -100, String(r.change));
    assert.ok(r.ciLow! < r.change! && r.change! < r.ciHigh! && r.ciHigh! < 0);
    assert.ok(r.confidence > 0.99);
    assert.deepEqual(r.n, { before: 180, after: 180 });
  });
  it("helped for an 'increase' metric (peers up)", () => {
    assert.equal(compareBeforeAfter(iid(3, 60, 4, 1), iid(4, 60, 20, 3), "increase").verdict, "helped");
  });
  it("no effect: same distribution, interval covers 0", () => {
    const r = compareBeforeAfter(iid(5, 180, 200, 30), iid(6, 180, 200, 30), "decrease");
    assert.equal(r.verdict, "no-effect");
    assert.ok(r.ciLow! <= 0 && r.ciHigh! >= 0);
  });
  it("no effect when the shift is statistically clear but practically tiny (< 5 % of before)", () => {
    const r = compareBeforeAfter(iid(7, 2000, 1000, 5), iid(8, 2000, 990, 5), "decrease");
    assert.ok(r.ciHigh! < 0, "significant");
    assert.equal(r.verdict, "no-effect");
  });
  it("hurt: TIME_WAIT went up after the change", () => {
    const r = compareBeforeAfter(iid(9, 120, 1000, 100), iid(10, 120, 1600, 150), "decrease");
    assert.equal(r.verdict, "hurt");
    assert.ok(r.ciLow! > 0);
  });
  it("insufficient data: too few samples on either side, or nothing finite", () => {
    assert.equal(compareBeforeAfter([1, 2, 3], iid(11, 100, 1, 1), "decrease").verdict, "insufficient-data");
    assert.equal(compareBeforeAfter(iid(12, 100, 1, 1), [NaN, Infinity, 2], "decrease").verdict, "insufficient-data");
    const r = compareBeforeAfter([], [], "increase");
    assert.equal(r.verdict, "insufficient-data");
    assert.equal(r.beforeMedian, null);
    assert.equal(r.confidence, 0);
  });
  it("strongly autocorrelated series are reduced to blocks (honest n), so drift is not 'helped'", () => {
    const x = ar1(13, 600, 100, 10, 0.95);
    assert.ok(lag1Autocorrelation(x) > 0.8);
    assert.ok(reduceToBlocks(x).length < 60, String(reduceToBlocks(x).length));
    let falseVerdicts = 0;
    for (let s = 0; s < 100; s++) {
      const v = compareBeforeAfter(
        ar1(1000 + s, 300, 100, 10, 0.9),
        ar1(2000 + s, 300, 100, 10, 0.9),
        "decrease",
      ).verdict;
      if (v !== "no-effect" && v !== "insufficient-data") falseVerdicts++;
    }
    console.log(`AR(1) rho 0.9 false verdicts ${falseVerdicts}/100`);
    assert.ok(falseVerdicts <= 12, `false verdicts ${falseVerdicts}/100`);
  });
  it("iid noise: false verdicts stay near the 5 % level", () => {
    let falseVerdicts = 0;
    for (let s = 0; s < 200; s++) {
      const v = compareBeforeAfter(iid(3000 + s, 60, 50, 10), iid(4000 + s, 60, 50, 10), "decrease").verdict;
      if (v !== "no-effect") falseVerdicts++;
    }
    console.log(`iid false verdicts ${falseVerdicts}/200`);
    assert.ok(falseVerdicts <= 20, `false verdicts ${falseVerdicts}/200`);
  });
  it("count series with many ties (listen overflows mostly 0)", () => {
    const before = Array.from({ length: 120 }, (_, i) => (i % 4 === 0 ? 40 + (i % 7) : 0));
    const after = Array.from({ length: 120 }, () => 0);
    const r = compareBeforeAfter(before, after, "decrease");
    assert.notEqual(r.verdict, "hurt");
    const same = compareBeforeAfter(after, after, "decrease");
    assert.equal(same.verdict, "no-effect");
    assert.equal(same.change, 0);
  });
  it("Hodges–Lehmann and Mann–Whitney on a hand-checked example", () => {
    // differences after − before for before [1,2,3], after [4,5,6]: 1..5, median 3
    assert.equal(hodgesLehmann([1, 2, 3], [4, 5, 6]).shift, 3);
    assert.ok(mannWhitneyP([1, 2, 3, 4, 5, 6, 7, 8], [11, 12, 13, 14, 15, 16, 17, 18]) < 0.01);
    assert.ok(mannWhitneyP([1, 2, 3], [1, 2, 3]) > 0.9);
  });
});
