/**
 * Everything the ranking weighs, in one object: published as-is on the methodology page, and
 * versioned so a published list can say which rules produced it.
 */
export const SCORING = {
  version: "2026-12.1",
  /** Rolling windows a score is computed over. */
  windows: { "1h": 3_600_000, "24h": 86_400_000, "7d": 604_800_000 },
  /** Share of each component in the 0-100 score (components that cannot be computed are left out and the rest renormalised). */
  weights: { availability: 0.35, lag: 0.25, latency: 0.2, errors: 0.1, capabilities: 0.1 },
  availability: {
    /** Normal quantile of the Wilson lower bound (95 %). */
    z: 1.96,
  },
  latency: {
    /** Component = share * ref50/(ref50+p50) + (1-share) * ref95/(ref95+p95), on time to first byte of a fresh connection. */
    p50RefMs: 200,
    p95RefMs: 800,
    p50Share: 0.6,
  },
  lag: {
    /** Component = ref/(ref + mean lag in seconds) against the network head. */
    refSeconds: 30,
    /**
     * A probe's lag is taken against the stored consensus decision nearest its time (within this
     * distance), projected to the moment the endpoint answered (probe start + time to first byte);
     * without one, against the consensus of the server probes of its round.
     */
    decisionMaxDistanceMs: 180_000,
  },
  freshness: {
    /**
     * A probe lags when it is at least max(3, 30 s of blocks) behind the consensus head or its head is
     * older than max(60 s, 10 block intervals) (the limits nodes are held to); it is stale when its head
     * is that old and did not advance since the previous probe. Health in a window is "stale" when the
     * newest successful probe is stale, "lagging" when it lags or more than this share of the window's
     * successful probes lagged.
     */
    laggingShareAbove: 0.05,
  },
  errors: {/** Component = 1 - share of answered probes that were errors (HTTP >= 400 incl. 429, JSON-RPC error). */},
  capabilities: {
    /** Weighted mean of what is known; unknown or not applicable items are left out. */
    archive: 0.3,
    coverage: 0.25,
    websocket: 0.2,
    cors: 0.15,
    batch: 0.1,
  },
  status: {
    /** This many consecutive failed probes: dead (demoted, kept, marked). */
    deadAfterFailures: 5,
    /** Fewer samples than this in the window: probation (listed after established endpoints). */
    minSamples: 20,
    /** After being dead, this many consecutive successes end probation. */
    recoveryStreak: 10,
    /** Point availability below this, or the last probe failed: degraded. */
    degradedBelow: 0.95,
  },
  vantage: {
    /**
     * The overall ranking ("all" regions) and the listing status use RPC Pulse's own (server) probes only.
     * Opted-in agents add per-region views, where one organization's vantage points together hold at
     * most this share of an endpoint's samples when server probes of the region exist (without them,
     * each organization counts equally). An organization never scores endpoints it claims.
     */
    maxAgentShare: 0.25,
    /** Samples a vantage point needs before it is compared with the others. */
    minSamples: 5,
    /** Other vantage points (each with minSamples) needed to call one an outlier. */
    minOthers: 2,
    /** An agent vantage point this far from the median of the others is discounted (left out) and flagged. */
    outlier: {
      /** Absolute difference of availability (share of successful probes). */
      availability: 0.2,
      /** p50 latency this many times above or below the others' median (and at least latencyMinMs apart). */
      latencyRatio: 3,
      latencyMinMs: 25,
      /** Median lag this many blocks apart (at least; 30 s of blocks on fast chains). */
      lagBlocks: 2,
    },
  },
  ranking: {
    /** An endpoint passes the one ranked above it only when its score is higher by more than this. */
    hysteresis: 3,
  },
} as const;

export type ScoreWindow = keyof typeof SCORING.windows;
