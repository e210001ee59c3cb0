/**
 * When a head is too far behind or too old to call its server fresh, from the chain's block interval.
 * The same limits apply to nodes (fleet, status pages, uptime) and to directory endpoints (health
 * column, badges, API, status pages), so "lagging" means one thing everywhere.
 */
export interface FreshnessLimits {
  /** Blocks behind the consensus head that count as lagging: max(3, 30 s worth of blocks). */
  lagBlocks: number;
  /** A head older than this (ms) counts as lagging: max(60 s, 10 block intervals). */
  headAgeMs: number;
}

export function freshnessLimits(blockIntervalMs: number): FreshnessLimits {
  const interval = Math.max(1, blockIntervalMs);
  return {
    lagBlocks: Math.max(3, Math.ceil(30_000 / interval)),
    headAgeMs: Math.max(60_000, 10 * interval),
  };
}
