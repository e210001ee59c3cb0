import type { Thresholds } from "./types.js";

/**
 * Default thresholds. The tuning KB marks most as [proposal]: starting points to tune against data,
 * not facts. Sources for the few that are facts are given inline.
 */
export const DEFAULT_THRESHOLDS: Thresholds = {
  outboundWarnRatio: 0.5, // KB A9 R3
  outboundCritRatio: 0.8, // KB A9 R3
  inboundTwShare: 0.9, // KB A9 R2
  timeWaitMin: 1000,
  finWait2Min: 200,
  orphansMin: 100,
  closeWaitMin: 20,
  closeWaitMonotoneShare: 0.6,
  listenOverflowsMin: 1, // KB A9 R8: any increase over 5 minutes
  conntrackRatio: 0.8, // KB A9 R9
  fdRatio: 0.8, // KB A9 R11
  floodMinConnections: 50, // KB A9 R10: max(50, 5 %)
  floodShare: 0.05,
  perIpHeadroom: 2,
  lagBlocks: 10,
  fewPeers: 5,
  stalledHeadBlocks: 10, // KB A9 R20/R21: warn at 3 blocks, critical at 5 min (Ethereum) / 60 s (Hive)
  stalledHeadMinMs: 60_000,
  finalityStallBlocks: 64, // two Ethereum epochs (finality moves once per 32-slot epoch)
  finalityStallMinMs: 300_000,
  shmFreeRatio: 0.1,
  memAvailableRatio: 0.1, // KB A9 R13
  sidecarP95Ms: 1000,
  rpcConnCapRatio: 0.9,
  minSamples: 3,
  clockSkewMs: 2_000, // the host clock may be this far off before the clock-skew rule speaks
};

export function resolveThresholds(overrides: Partial<Thresholds> | undefined): Thresholds {
  const out: Thresholds = { ...DEFAULT_THRESHOLDS };
  for (const [key, value] of Object.entries(overrides ?? {}) as [keyof Thresholds, number | undefined][]) {
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
  }
  return out;
}
