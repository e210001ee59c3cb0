import type { Verdict, VerificationResult } from "../types.js";

/**
 * Before/after comparison of one metric around a change.
 *
 * Method (deterministic, no random numbers):
 * 1. Drop non-finite values. Neighbouring samples of a time series are correlated, which makes any
 *    test that assumes independent points overconfident. Each side is therefore reduced to block
 *    medians: the block length is 2·n / n_eff (1 when r₁ < 0.1) with n_eff = n·(1−r₁)/(1+r₁) from the lag-1
 *    autocorrelation r₁ (clamped to [0, 0.95]).
 * 2. Shift estimate: Hodges–Lehmann, the median of all pairwise differences after − before.
 * 3. 95 % interval of the shift: the distribution-free (Moses) interval from the ordered pairwise
 *    differences, using the normal approximation of the Mann–Whitney U critical value.
 * 4. Confidence: 1 − two-sided p of the Mann–Whitney U test (normal approximation, tie-corrected).
 * Verdict: insufficient-data when either side has fewer than `minBlocks` blocks; helped/hurt when
 * the interval excludes 0 on the good/bad side and the shift is at least `minRelativeChange` of
 * the before median (or `minAbsoluteChange`); otherwise no-effect.
 */
export interface CompareOptions {
  /** Minimum blocks per side after the autocorrelation reduction (default 6). */
  minBlocks?: number;
  /** Minimum raw samples per side (default 10). */
  minSamples?: number;
  /** Practical significance: |shift| ≥ this share of |before median| (default 0.05). */
  minRelativeChange?: number;
  /** Practical significance when the before median is 0 (default 0: any shift counts). */
  minAbsoluteChange?: number;
}

const Z_975 = 1.959963984540054;
const MAX_SIDE = 1000;

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function lag1Autocorrelation(values: readonly number[]): number {
  const n = values.length;
  if (n < 3) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i]! - mean;
    den += d * d;
    if (i > 0) num += d * (values[i - 1]! - mean);
  }
  return den === 0 ? 0 : num / den;
}

/** Block medians so that the blocks are roughly independent (see the method above). */
export function reduceToBlocks(values: readonly number[]): number[] {
  const n = values.length;
  if (n < 3) return [...values];
  const r = Math.min(0.95, Math.max(0, lag1Autocorrelation(values)));
  const neff = Math.max(1, (n * (1 - r)) / (1 + r));
  // Twice n / n_eff (when r₁ ≥ 0.1): block medians of AR(1) noise are still correlated at n / n_eff.
  const len = r < 0.1 ? 1 : Math.max(1, Math.round((2 * n) / neff));
  if (len === 1) return [...values];
  const blocks: number[] = [];
  for (let i = 0; i + len <= n; i += len) blocks.push(median(values.slice(i, i + len))!);
  return blocks;
}

/** Evenly spaced thinning so the pairwise differences stay bounded (n1·n2 ≤ 10⁶). */
function thin(values: number[]): number[] {
  if (values.length <= MAX_SIDE) return values;
  const step = values.length / MAX_SIDE;
  return Array.from({ length: MAX_SIDE }, (_, i) => values[Math.floor(i * step)]!);
}

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 via erf; |error| < 1.5e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** Two-sided Mann–Whitney U p-value (normal approximation with tie correction and continuity). */
export function mannWhitneyP(a: readonly number[], b: readonly number[]): number {
  const n1 = a.length;
  const n2 = b.length;
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const N = all.length;
  let rankSumA = 0;
  let tieTerm = 0;
  for (let i = 0; i < N;) {
    let j = i;
    while (j + 1 < N && all[j + 1]!.v === all[i]!.v) j++;
    const rank = (i + j + 2) / 2;
    const t = j - i + 1;
    tieTerm += t * t * t - t;
    for (let k = i; k <= j; k++) if (all[k]!.g === 0) rankSumA += rank;
    i = j + 1;
  }
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const mu = (n1 * n2) / 2;
  const sigma2 = ((n1 * n2) / 12) * (N + 1 - tieTerm / (N * (N - 1)));
  if (sigma2 <= 0) return 1;
  const z = (Math.abs(u - mu) - 0.5) / Math.sqrt(sigma2);
  return Math.min(1, 2 * (1 - normalCdf(Math.max(0, z))));
}

/** Hodges–Lehmann shift (after − before) and its Moses 95 % interval. */
export function hodgesLehmann(
  before: readonly number[],
  after: readonly number[],
): { shift: number; low: number; high: number } {
  const n1 = before.length;
  const n2 = after.length;
  const diffs = new Float64Array(n1 * n2);
  let k = 0;
  for (const y of after) for (const x of before) diffs[k++] = y - x;
  diffs.sort();
  const m = diffs.length;
  const shift = m % 2 ? diffs[m >> 1]! : (diffs[(m >> 1) - 1]! + diffs[m >> 1]!) / 2;
  const c = Math.floor((n1 * n2) / 2 - Z_975 * Math.sqrt((n1 * n2 * (n1 + n2 + 1)) / 12));
  const lowIdx = Math.min(m - 1, Math.max(0, c));
  const highIdx = Math.max(0, Math.min(m - 1, m - 1 - c));
  return { shift, low: diffs[lowIdx]!, high: diffs[highIdx]! };
}

export function compareBeforeAfter(
  before: readonly number[],
  after: readonly number[],
  direction: "decrease" | "increase",
  options: CompareOptions = {},
): VerificationResult {
  const minBlocks = options.minBlocks ?? 6;
  const minSamples = options.minSamples ?? 10;
  const minRel = options.minRelativeChange ?? 0.05;
  const minAbs = options.minAbsoluteChange ?? 0;
  const b = before.filter(Number.isFinite);
  const a = after.filter(Number.isFinite);
  const beforeMedian = median(b);
  const afterMedian = median(a);
  const insufficient = (): VerificationResult => ({
    verdict: "insufficient-data",
    beforeMedian,
    afterMedian,
    change: beforeMedian !== null && afterMedian !== null ? afterMedian - beforeMedian : null,
    ciLow: null,
    ciHigh: null,
    confidence: 0,
    n: { before: b.length, after: a.length },
  });
  if (b.length < minSamples || a.length < minSamples) return insufficient();
  const bb = thin(reduceToBlocks(b));
  const ab = thin(reduceToBlocks(a));
  if (bb.length < minBlocks || ab.length < minBlocks) return insufficient();
  const hl = hodgesLehmann(bb, ab);
  const p = mannWhitneyP(bb, ab);
  const practical = Math.max(minAbs, minRel * Math.abs(beforeMedian ?? 0));
  const good = direction === "decrease" ? hl.high < 0 : hl.low > 0;
  const bad = direction === "decrease" ? hl.low > 0 : hl.high < 0;
  let verdict: Verdict = "no-effect";
  if (Math.abs(hl.shift) >= practical && Math.abs(hl.shift) > 0) {
    if (good) verdict = "helped";
    else if (bad) verdict = "hurt";
  }
  return {
    verdict,
    beforeMedian,
    afterMedian,
    change: hl.shift,
    ciLow: hl.low,
    ciHigh: hl.high,
    confidence: 1 - p,
    n: { before: b.length, after: a.length },
  };
}
