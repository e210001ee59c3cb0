import type { CapabilityReport } from "../probe/types.js";
import { freshnessLimits, freshnessOfProbe, type FreshnessLimits, type FreshnessState } from "./freshness.js";
import { SCORING, type ScoreWindow } from "./methodology.js";
import { emptySummary, lagQuantile, mergeSummary, ttfbQuantile, type ProbeSummary } from "./probe-summary.js";
import {
  buildComponents,
  capabilityScore,
  statusOf,
  totalScore,
  type EndpointScore,
  type LatencyStats,
  type ScoreSample,
} from "./score.js";
import { wilsonLowerBound } from "./stats.js";

export interface SummaryWindow {
  endpointId: string;
  window: ScoreWindow;
  /** The window's probes summarised per vantage region (rollup buckets + raw tail). */
  byRegion: ReadonlyMap<string, ProbeSummary>;
  /**
   * The raw probes at the recent end of the window, oldest first: what the sequence rules need
   * (consecutive failures, recovery streak, freshness of the newest answer, last success).
   */
  recent: readonly ScoreSample[];
  capabilities?: CapabilityReport | null;
  blockIntervalMs: number;
  /** Score latency as seen from this region (falls back to all regions when it has no samples). */
  region?: string;
  freshness?: FreshnessLimits;
}

/** The samples oldest first: the same array when already so (views pass them sorted), else a sorted copy. */
function oldestFirst(samples: readonly ScoreSample[]): readonly ScoreSample[] {
  for (let i = 1; i < samples.length; i++) {
    if ((samples[i] as ScoreSample).at < (samples[i - 1] as ScoreSample).at) {
      return [...samples].sort((a, b) => a.at - b.at);
    }
  }
  return samples;
}

function latencyOf(s: ProbeSummary): LatencyStats {
  return { p50: ttfbQuantile(s, 0.5), p95: ttfbQuantile(s, 0.95), n: s.ttfbN };
}

/**
 * The freshness state and status of a window from its totals (probes, successes, lagging successes)
 * and its recent raw probes: the sequence rules of scoreSummary.
 */
function decideStatus(input: SummaryWindow, n: number, ok: number, lagging: number) {
  const limits = input.freshness ?? freshnessLimits(input.blockIntervalMs);
  const recent = oldestFirst(input.recent);
  let newest = -1;
  for (let i = recent.length - 1; i >= 0 && newest < 0; i--) if (recent[i]?.ok) newest = i;
  const last = newest >= 0 ? freshnessOfProbe(recent, newest, limits, input.blockIntervalMs) : undefined;
  const laggingShare = ok ? lagging / ok : null;
  const state: FreshnessState = last?.stale
    ? "stale"
    : last?.lagging || (laggingShare ?? 0) > SCORING.freshness.laggingShareAbove
      ? "lagging"
      : "fresh";
  return { recent, newest, laggingShare, state, ...statusOf(recent, state, { n, ok }) };
}

/**
 * scoreSummary's status alone (the region quorum asks each region for its status only): the same
 * totals and sequence rules, without the histogram quantiles, components and score.
 */
export function summaryStatus(input: SummaryWindow): EndpointScore["status"] {
  let n = 0;
  let ok = 0;
  let lagging = 0;
  for (const s of input.byRegion.values()) {
    n += s.probes;
    ok += s.ok;
    lagging += s.lagging;
  }
  return decideStatus(input, n, ok, lagging).status;
}

/**
 * scoreEndpoint over a summary instead of every probe: the same components, weights, freshness and
 * status rules. Quantiles come from the TTFB histogram (within one quarter-octave bucket of the raw
 * quantile), counts and means are exact; the sequence rules read the recent raw probes.
 */
export function scoreSummary(input: SummaryWindow): EndpointScore {
  const total = emptySummary();
  for (const s of input.byRegion.values()) mergeSummary(total, s);
  const n = total.probes;
  const ok = total.ok;
  const availability = { point: n ? ok / n : 0, lower: wilsonLowerBound(ok, n, SCORING.availability.z) };
  const byRegion: Record<string, LatencyStats> = {};
  for (const [region, s] of input.byRegion) if (s.ttfbN > 0) byRegion[region] = latencyOf(s);
  const regional = input.region ? input.byRegion.get(input.region) : undefined;
  const lat = latencyOf(regional && regional.ttfbN > 0 ? regional : total);
  const meanLag = total.lagN ? total.lagSum / total.lagN : null;
  const lag = {
    meanBlocks: meanLag,
    p95Blocks: lagQuantile(total, 0.95),
    meanSeconds: meanLag === null ? null : (meanLag * input.blockIntervalMs) / 1000,
  };
  const errorRate = total.answered ? total.answeredError / total.answered : 0;
  const caps = capabilityScore(input.capabilities);
  const components = buildComponents({
    availabilityLower: n ? availability.lower : null,
    p50: lat.p50,
    p95: lat.p95,
    lagMeanSeconds: lag.meanSeconds,
    errorRate: total.answered ? errorRate : null,
    capabilities: caps,
  });
  const score = totalScore(components, ok);
  const { recent, newest, laggingShare, state, status, consecutiveFailures } = decideStatus(
    input,
    n,
    ok,
    total.lagging,
  );
  return {
    endpointId: input.endpointId,
    window: input.window,
    samples: Math.round(n),
    okSamples: Math.round(ok),
    availability,
    latency: { p50: lat.p50, p95: lat.p95, n: lat.n, byRegion },
    lag,
    freshness: { state, laggingShare, staleShare: ok ? total.stale / ok : null },
    errorRate,
    rateLimitedRate: n ? total.rateLimited / n : 0,
    capabilityScore: caps,
    components,
    score: Math.round(score * 100) / 100,
    status,
    consecutiveFailures,
    lastOkAt: recent[newest]?.at ?? null,
  };
}
