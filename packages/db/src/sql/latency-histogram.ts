/**
 * Latency histogram stored by the rollups (lat_le_5 ... lat_le_5000, lat_gt_5000): counts per
 * bucket, not cumulative. Upper bounds in milliseconds; the last bucket is open.
 */
export const LATENCY_BUCKET_BOUNDS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000] as const;

/**
 * Estimate the q-quantile (0 < q <= 1) from bucket counts by linear interpolation inside the
 * bucket that holds the rank, clamped to the observed [min, max]. Returns null for no samples.
 * Error is bounded by the bucket width (e.g. a p95 in the 100-250 ms bucket is within 150 ms).
 */
export function estimateQuantile(
  counts: readonly number[],
  q: number,
  min: number | null,
  max: number | null,
): number | null {
  if (counts.length !== LATENCY_BUCKET_BOUNDS_MS.length + 1) {
    throw new Error(`expected ${LATENCY_BUCKET_BOUNDS_MS.length + 1} histogram buckets, got ${counts.length}`);
  }
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let before = 0;
  for (let i = 0; i < counts.length; i++) {
    const count = counts[i] ?? 0;
    if (count > 0 && before + count >= rank) {
      let lower: number = i === 0 ? 0 : (LATENCY_BUCKET_BOUNDS_MS[i - 1] ?? 0);
      let upper: number = LATENCY_BUCKET_BOUNDS_MS[i] ?? max ?? lower;
      if (min !== null) lower = Math.max(lower, min);
      if (max !== null) upper = Math.min(upper, max);
      if (upper < lower) upper = lower;
      return lower + ((upper - lower) * (rank - before)) / count;
    }
    before += count;
  }
  return max;
}
