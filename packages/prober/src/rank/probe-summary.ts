import type { ScoreSample } from "./score.js";

/**
 * A mergeable summary of probes: what the ranking needs of a window when it reads rollups instead of
 * raw probes (probe_rank_5m / probe_rank_1h, migration 0019). Counts add up, so the summary of a
 * window is the sum of its buckets' summaries plus the raw tail's.
 */

/** Time to first byte buckets: 0 is <= 1 ms, i is (2^((i-1)/4), 2^(i/4)] ms, the last is open. */
export const TTFB_BUCKETS = 64;
/** Lag buckets (blocks): lower bounds; 0..7 exact, then widening; the last is open. */
export const LAG_BUCKET_LOWER = [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 32, 64, 128, 256, 1024] as const;
export const LAG_BUCKETS = LAG_BUCKET_LOWER.length;
/** Failed probes by error class (connect covers dns, connect and tls; other the rest). */
export const ERROR_CLASSES = ["timeout", "connect", "http", "rpc", "other"] as const;
export type ErrorClassGroup = (typeof ERROR_CLASSES)[number];

export interface ProbeSummary {
  probes: number;
  ok: number;
  answered: number;
  answeredError: number;
  rateLimited: number;
  errors: Record<ErrorClassGroup, number>;
  ttfbN: number;
  ttfbSum: number;
  /** Counts per TTFB bucket (not cumulative), length TTFB_BUCKETS. */
  ttfb: number[];
  lagN: number;
  lagSum: number;
  /** Counts per lag bucket, length LAG_BUCKETS. */
  lag: number[];
  lagging: number;
  stale: number;
  headRegressions: number;
}

export function emptySummary(): ProbeSummary {
  return {
    probes: 0,
    ok: 0,
    answered: 0,
    answeredError: 0,
    rateLimited: 0,
    errors: { timeout: 0, connect: 0, http: 0, rpc: 0, other: 0 },
    ttfbN: 0,
    ttfbSum: 0,
    ttfb: new Array<number>(TTFB_BUCKETS).fill(0),
    lagN: 0,
    lagSum: 0,
    lag: new Array<number>(LAG_BUCKETS).fill(0),
    lagging: 0,
    stale: 0,
    headRegressions: 0,
  };
}

/** Bucket of a TTFB in ms. */
export function ttfbBucket(ms: number): number {
  if (!(ms > 1)) return 0;
  return Math.min(TTFB_BUCKETS - 1, Math.ceil(4 * Math.log2(ms) - 1e-9));
}

/** [lower, upper] of a TTFB bucket in ms (the last bucket's upper is Infinity). */
export function ttfbBucketBounds(i: number): [number, number] {
  const lower = i <= 0 ? 0 : 2 ** ((i - 1) / 4);
  const upper = i >= TTFB_BUCKETS - 1 ? Infinity : 2 ** (i / 4);
  return [lower, upper];
}

export function lagBucket(blocks: number): number {
  let i = 0;
  while (i + 1 < LAG_BUCKETS && blocks >= (LAG_BUCKET_LOWER[i + 1] ?? Infinity)) i++;
  return i;
}

export function lagBucketBounds(i: number): [number, number] {
  return [LAG_BUCKET_LOWER[i] ?? 0, LAG_BUCKET_LOWER[i + 1] ?? Infinity];
}

export function errorClassGroup(errorClass: string | null | undefined): ErrorClassGroup {
  if (errorClass === "timeout" || errorClass === "http" || errorClass === "rpc") return errorClass;
  if (errorClass === "dns" || errorClass === "connect" || errorClass === "tls") return "connect";
  return "other";
}

/** Per-probe facts the summary needs beyond the sample: freshness flags and a head regression. */
export interface SampleFlags {
  lagging: boolean;
  stale: boolean;
  regression?: boolean;
  errorClass?: string | null;
}

/** Adds one probe to a summary (in place). */
export function addSample(into: ProbeSummary, s: ScoreSample, flags: SampleFlags): void {
  into.probes++;
  if (s.answered) into.answered++;
  if (s.answeredError) into.answeredError++;
  if (s.rateLimited) into.rateLimited++;
  if (flags.regression) into.headRegressions++;
  if (!s.ok) {
    into.errors[errorClassGroup(flags.errorClass)]++;
    return;
  }
  into.ok++;
  if (s.ttfbMs !== null) {
    into.ttfbN++;
    into.ttfbSum += s.ttfbMs;
    into.ttfb[ttfbBucket(s.ttfbMs)]!++;
  }
  if (s.lagBlocks !== null) {
    into.lagN++;
    into.lagSum += s.lagBlocks;
    into.lag[lagBucket(s.lagBlocks)]!++;
  }
  if (flags.lagging) into.lagging++;
  if (flags.stale) into.stale++;
}

/** into += scale × from (in place; a scale below 1 weighs a capped source). */
export function mergeSummary(into: ProbeSummary, from: ProbeSummary, scale = 1): ProbeSummary {
  // Called hundreds of thousands of times a round: named error classes and the histograms' arrays read
  // once (no keyed loop over ERROR_CLASSES, no property load per bucket).
  into.probes += scale * from.probes;
  into.ok += scale * from.ok;
  into.answered += scale * from.answered;
  into.answeredError += scale * from.answeredError;
  into.rateLimited += scale * from.rateLimited;
  const e = into.errors;
  const fe = from.errors;
  e.timeout += scale * fe.timeout;
  e.connect += scale * fe.connect;
  e.http += scale * fe.http;
  e.rpc += scale * fe.rpc;
  e.other += scale * fe.other;
  into.ttfbN += scale * from.ttfbN;
  into.ttfbSum += scale * from.ttfbSum;
  const t = into.ttfb;
  const ft = from.ttfb;
  for (let i = 0; i < TTFB_BUCKETS; i++) t[i] = (t[i] ?? 0) + scale * (ft[i] ?? 0);
  into.lagN += scale * from.lagN;
  into.lagSum += scale * from.lagSum;
  const l = into.lag;
  const fl = from.lag;
  for (let i = 0; i < LAG_BUCKETS; i++) l[i] = (l[i] ?? 0) + scale * (fl[i] ?? 0);
  into.lagging += scale * from.lagging;
  into.stale += scale * from.stale;
  into.headRegressions += scale * from.headRegressions;
  return into;
}

/**
 * The value of the k-th smallest probe (0-based) placed inside its bucket: geometrically for TTFB
 * buckets, linearly for lag (exact for the one-block buckets).
 */
function valueAtRank(
  counts: readonly number[],
  k: number,
  bounds: (i: number) => [number, number],
  geometric: boolean,
): number {
  let before = 0;
  let last = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i] ?? 0;
    if (c <= 0) continue;
    last = i;
    if (before + c > k) {
      const [lo, hi] = bounds(i);
      if (!Number.isFinite(hi)) return lo;
      if (!geometric && hi - lo <= 1) return lo;
      const f = Math.min(1, Math.max(0, (k - before + 0.5) / c));
      return geometric && lo > 0 ? lo * (hi / lo) ** f : lo + (hi - lo) * f;
    }
    before += c;
  }
  return bounds(last)[0];
}

/**
 * The q-quantile of a histogram as stats.quantile defines it on the raw values (linear interpolation
 * between the closest ranks at position (n-1)q), each rank's value placed inside its bucket: the
 * estimate lies between the buckets of the two ranks, so its error is at most one bucket's width.
 */
function histogramQuantile(
  counts: readonly number[],
  q: number,
  bounds: (i: number) => [number, number],
  geometric: boolean,
): number | null {
  const n = counts.reduce((a, b) => a + b, 0);
  if (n <= 0) return null;
  const pos = (n - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const a = valueAtRank(counts, lo, bounds, geometric);
  if (pos === lo) return a;
  const b = valueAtRank(counts, lo + 1, bounds, geometric);
  return a + (b - a) * (pos - lo);
}

export function ttfbQuantile(s: Pick<ProbeSummary, "ttfb">, q: number): number | null {
  return histogramQuantile(s.ttfb, q, ttfbBucketBounds, true);
}

export function lagQuantile(s: Pick<ProbeSummary, "lag">, q: number): number | null {
  return histogramQuantile(s.lag, q, lagBucketBounds, false);
}
