import assert from "node:assert/strict";
import { test } from "node:test";
import {
  addSample,
  emptySummary,
  lagBucket,
  lagBucketBounds,
  lagQuantile,
  mergeSummary,
  quantile,
  scoreEndpoint,
  scoreSummary,
  summaryStatus,
  ttfbBucket,
  ttfbBucketBounds,
  ttfbQuantile,
  type ProbeSummary,
  type ScoreSample,
} from "../src/index.js";
import { prng } from "./helpers/streams.js";

const rng = prng;

function sample(at: number, ttfbMs: number | null, lagBlocks: number | null, ok = true): ScoreSample {
  return {
    at,
    ok,
    answered: true,
    answeredError: !ok,
    rateLimited: false,
    ttfbMs: ok ? ttfbMs : null,
    lagBlocks: ok ? lagBlocks : null,
    headBlock: 1000 + at,
    headAgeMs: 500,
    region: "r1",
  };
}

const DISTRIBUTIONS: Record<string, (r: () => number) => number> = {
  uniform: (r) => 5 + r() * 400,
  lognormal: (r) => Math.exp(3.5 + 1.2 * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r())),
  bimodal: (r) => (r() < 0.8 ? 20 + r() * 10 : 900 + r() * 300),
  tight: (r) => 120 + r() * 2,
  subMs: (r) => r() * 3,
};

test("bucket edges: a value on a bound belongs to the bucket it closes", () => {
  for (let i = 1; i < 63; i++) {
    const [, upper] = ttfbBucketBounds(i);
    assert.equal(ttfbBucket(upper), i);
    assert.equal(ttfbBucket(upper * 1.0001), i + 1);
  }
  assert.equal(ttfbBucket(0.2), 0);
  assert.equal(ttfbBucket(10 ** 9), 63);
  for (const b of [0, 1, 7, 8, 11, 12, 15, 16, 31, 32, 1023, 1024, 50_000]) {
    const [lo, hi] = lagBucketBounds(lagBucket(b));
    assert.ok(b >= lo && b < hi, `${b} in [${lo}, ${hi})`);
  }
});

test("rollup quantiles match raw quantiles within the bucket error, split into buckets and merged", () => {
  for (const [name, draw] of Object.entries(DISTRIBUTIONS)) {
    for (const n of [1, 2, 7, 100, 5_000]) {
      const r = rng(n * 31 + name.length);
      const values = Array.from({ length: n }, () => draw(r));
      // As the ranking reads a window: many 5-minute buckets summed, plus a raw tail.
      const parts: ProbeSummary[] = [];
      values.forEach((v, i) => {
        const k = i % 13;
        parts[k] ??= emptySummary();
        addSample(parts[k], sample(i, v, null), { lagging: false, stale: false });
      });
      const total = parts.reduce((t, p) => mergeSummary(t, p), emptySummary());
      assert.equal(total.ttfbN, n);
      const sorted = [...values].sort((a, b) => a - b);
      for (const q of [0.5, 0.95]) {
        const raw = quantile(values, q) as number;
        const est = ttfbQuantile(total, q) as number;
        const pos = (n - 1) * q;
        // The estimate lies in the buckets of the ranks the raw quantile interpolates between.
        const lo = ttfbBucketBounds(ttfbBucket(sorted[Math.floor(pos)] as number))[0];
        const hi = ttfbBucketBounds(ttfbBucket(sorted[Math.ceil(pos)] as number))[1];
        assert.ok(est >= lo && est <= hi, `${name} n=${n} q=${q}: ${est} outside [${lo}, ${hi}] (raw ${raw})`);
        // Where both ranks share a bucket the error is under one quarter octave (19 %).
        if (raw > 1 && ttfbBucket(sorted[Math.floor(pos)] as number) === ttfbBucket(sorted[Math.ceil(pos)] as number)) {
          assert.ok(Math.abs(est - raw) / raw < 2 ** 0.25 - 1, `${name} n=${n} q=${q}: ${est} vs ${raw}`);
        }
      }
    }
  }
});

test("lag quantile is exact up to 7 blocks and within its bucket above; mean is exact", () => {
  const r = rng(7);
  const lags = Array.from({ length: 999 }, () => Math.floor(r() * r() * 40));
  const s = emptySummary();
  lags.forEach((l, i) => addSample(s, sample(i, 10, l), { lagging: l >= 3, stale: false }));
  const raw = quantile(lags, 0.5) as number;
  const est = lagQuantile(s, 0.5) as number;
  if (raw < 8) assert.equal(est, Math.floor(raw));
  const p95 = quantile(lags, 0.95) as number;
  const [lo, hi] = lagBucketBounds(lagBucket(p95));
  const e95 = lagQuantile(s, 0.95) as number;
  assert.ok(e95 >= lo && e95 <= hi, `p95 ${e95} vs ${p95}`);
  assert.equal(s.lagSum / s.lagN, lags.reduce((a, b) => a + b, 0) / lags.length);
  assert.equal(s.lagging, lags.filter((l) => l >= 3).length);
});

test("scoreSummary agrees with scoreEndpoint on counts, availability, lag and status; latency within a bucket", () => {
  const r = rng(99);
  const now = 10_000_000;
  const samples = Array.from({ length: 400 }, (_, i) => sample(now - (400 - i) * 9_000, 30 + r() * 60, 0, r() > 0.03));
  const raw = scoreEndpoint({ endpointId: "e", samples, now, window: "1h", blockIntervalMs: 3_000 });
  const inWindow = samples.filter((s) => s.at > now - 3_600_000);
  const summary = emptySummary();
  for (const s of inWindow) addSample(summary, s, { lagging: false, stale: false });
  const rolled = scoreSummary({
    endpointId: "e",
    window: "1h",
    byRegion: new Map([["r1", summary]]),
    recent: inWindow.slice(-40),
    blockIntervalMs: 3_000,
  });
  assert.equal(rolled.samples, raw.samples);
  assert.equal(rolled.okSamples, raw.okSamples);
  assert.equal(rolled.availability.lower, raw.availability.lower);
  assert.equal(rolled.status, raw.status);
  assert.equal(rolled.consecutiveFailures, raw.consecutiveFailures);
  assert.equal(rolled.lag.meanBlocks, raw.lag.meanBlocks);
  assert.equal(rolled.errorRate, raw.errorRate);
  const p50 = raw.latency.p50 as number;
  assert.ok(Math.abs((rolled.latency.p50 as number) - p50) / p50 < 0.19, `${rolled.latency.p50} vs ${p50}`);
  assert.ok(Math.abs(rolled.score - raw.score) < 1, `${rolled.score} vs ${raw.score}`);
});

test("summaryStatus is scoreSummary's status: healthy, degraded, lagging, stale, probation, dead, recovering", () => {
  const r = rng(7);
  const now = 10_000_000;
  const cases: Array<{
    name: string;
    recent: ScoreSample[];
    flags: (i: number) => { lagging: boolean; stale: boolean };
  }> = [];
  const run = (name: string, okAt: (i: number) => boolean, n = 120, headAt = (i: number) => 1000 + i) => {
    const recent = Array.from({ length: n }, (_, i) => ({
      ...sample(now - (n - i) * 30_000, 40 + r() * 50, 0, okAt(i)),
      headBlock: headAt(i),
    }));
    cases.push({ name, recent, flags: (i) => ({ lagging: i % 3 === 0 && name === "lagging share", stale: false }) });
  };
  run("healthy", () => true);
  run("degraded", (i) => i % 4 !== 0);
  run("failing now", (i) => i < 115);
  run("dead", (i) => i < 60);
  run("recovering", (i) => i < 40 || i > 110);
  run("few probes", () => true, 5);
  run("lagging share", () => true);
  run(
    "stuck head",
    () => true,
    120,
    () => 1000,
  );
  for (const c of cases) {
    const byRegion = new Map<string, ProbeSummary>();
    c.recent.forEach((s, i) => {
      const region = i % 2 ? "r1" : "r2";
      const into = byRegion.get(region) ?? emptySummary();
      addSample(into, s, c.flags(i));
      byRegion.set(region, into);
    });
    const input = {
      endpointId: "e",
      window: "1h" as const,
      byRegion,
      recent: c.recent.slice(-60),
      blockIntervalMs: 3_000,
    };
    assert.equal(summaryStatus(input), scoreSummary(input).status, c.name);
  }
  const statuses = new Set(
    cases.map((c) =>
      summaryStatus({
        endpointId: "e",
        window: "1h",
        byRegion: new Map([
          [
            "r1",
            (() => {
              const t = emptySummary();
              c.recent.forEach((s, i) => addSample(t, s, c.flags(i)));
              return t;
            })(),
          ],
        ]),
        recent: c.recent.slice(-60),
        blockIntervalMs: 3_000,
      }),
    ),
  );
  assert.ok(statuses.size >= 4, `statuses seen: ${[...statuses].join(", ")}`);
});
