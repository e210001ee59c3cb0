import type { CapabilityReport, ProbeResult } from "../probe/types.js";
import { freshnessLimits, summarizeFreshness, type FreshnessLimits, type FreshnessState } from "./freshness.js";
import { SCORING, type ScoreWindow } from "./methodology.js";
import { mean, quantile, wilsonLowerBound } from "./stats.js";

/** One probe, reduced to what scoring needs. */
export interface ScoreSample {
  at: number;
  ok: boolean;
  /** Some HTTP response arrived (even an error). */
  answered: boolean;
  /** Answered with an error: HTTP >= 400 (429 included) or a JSON-RPC error. */
  answeredError: boolean;
  rateLimited: boolean;
  /** Time to first byte on a fresh connection, ms. */
  ttfbMs: number | null;
  /** Blocks behind the network head at that probe; null when unknown. */
  lagBlocks: number | null;
  /** Head block the probe read (staleness: a head that does not advance). */
  headBlock?: number | null;
  /** Head age at the probe (probe time − head block time), when the family reports head times. */
  headAgeMs?: number | null;
  /** Probe region (vantage point). */
  region?: string;
}

/** Turns a probe result and its lag (from computeNetworkHead) into a sample. */
export function sampleFromProbe(result: ProbeResult, lagBlocks: number | null, region?: string): ScoreSample {
  const answered = result.httpStatus !== null;
  const sample: ScoreSample = {
    at: result.startedAt,
    ok: result.ok,
    answered,
    answeredError: answered && !result.ok && (result.errorClass === "rpc" || (result.httpStatus ?? 0) >= 400),
    rateLimited: result.rateLimited,
    ttfbMs: result.ok ? (result.phases?.ttfbMs ?? null) : null,
    lagBlocks: result.ok ? lagBlocks : null,
    headBlock: result.ok ? result.headBlock : null,
    headAgeMs:
      result.ok && result.headTime !== null ? result.startedAt + (result.phases?.ttfbMs ?? 0) - result.headTime : null,
  };
  if (region !== undefined) sample.region = region;
  return sample;
}

export interface EndpointWindow {
  endpointId: string;
  samples: readonly ScoreSample[];
  capabilities?: CapabilityReport | null;
  now: number;
  window: ScoreWindow;
  blockIntervalMs: number;
  /** Score latency as seen from this region (falls back to all regions when it has no samples). */
  region?: string;
  /** Lag and head-age limits (default: freshnessLimits of blockIntervalMs, as for nodes). */
  freshness?: FreshnessLimits;
}

/** Worst last among the listed: stale and lagging answer, but with old data. */
export type EndpointStatus = "healthy" | "degraded" | "lagging" | "stale" | "probation" | "dead";

export interface LatencyStats {
  p50: number | null;
  p95: number | null;
  n: number;
}

export interface EndpointScore {
  endpointId: string;
  window: ScoreWindow;
  samples: number;
  okSamples: number;
  availability: { point: number; lower: number };
  latency: LatencyStats & { byRegion: Record<string, LatencyStats> };
  lag: { meanBlocks: number | null; p95Blocks: number | null; meanSeconds: number | null };
  /** Freshness of the answers: state, and shares of successful probes that lagged / were stale. */
  freshness: { state: FreshnessState; laggingShare: number | null; staleShare: number | null };
  errorRate: number;
  rateLimitedRate: number;
  capabilityScore: number | null;
  /** Each component in 0..1, null when it cannot be computed. */
  components: Record<keyof typeof SCORING.weights, number | null>;
  /** 0..100. */
  score: number;
  status: EndpointStatus;
  consecutiveFailures: number;
  lastOkAt: number | null;
}

function latencyStats(values: number[]): LatencyStats {
  return { p50: quantile(values, 0.5), p95: quantile(values, 0.95), n: values.length };
}

export function capabilityScore(report: CapabilityReport | null | undefined): number | null {
  if (!report) return null;
  const w = SCORING.capabilities;
  const items: Array<[number, boolean | number | null]> = [
    [w.archive, report.archive],
    [w.coverage, report.coverage],
    [w.websocket, report.websocket.supported],
    [w.cors, report.cors.status === null ? null : report.cors.allowed],
    [w.batch, report.batch],
  ];
  let sum = 0;
  let weight = 0;
  for (const [wi, v] of items) {
    if (v === null) continue;
    sum += wi * (typeof v === "number" ? v : v ? 1 : 0);
    weight += wi;
  }
  return weight === 0 ? null : sum / weight;
}

/**
 * Status from the probe sequence (oldest first): dead, probation, then freshness (stale, lagging: an
 * endpoint serving old data is never healthy), then availability (degraded), else healthy.
 */
export function statusOf(
  samples: readonly ScoreSample[],
  freshness: FreshnessState,
  /** Window totals when `samples` is only the recent end of the window (rollup scoring). */
  totals: { n: number; ok: number } = { n: samples.length, ok: samples.filter((x) => x.ok).length },
): { status: EndpointStatus; consecutiveFailures: number } {
  const s = SCORING.status;
  let consecutiveFailures = 0;
  for (let i = samples.length - 1; i >= 0 && !samples[i]?.ok; i--) consecutiveFailures++;
  if (consecutiveFailures >= s.deadAfterFailures) return { status: "dead", consecutiveFailures };
  if (totals.n < s.minSamples) return { status: "probation", consecutiveFailures };
  // Recovered from a dead run inside the window: on probation until a clean streak.
  let streak = 0;
  let i = samples.length - 1;
  for (; i >= 0 && samples[i]?.ok; i--) streak++;
  let failRun = 0;
  for (; i >= 0 && !samples[i]?.ok; i--) failRun++;
  if (failRun >= s.deadAfterFailures && streak < s.recoveryStreak) return { status: "probation", consecutiveFailures };
  if (freshness !== "fresh") return { status: freshness, consecutiveFailures };
  const okShare = totals.ok / totals.n;
  if (okShare < s.degradedBelow || consecutiveFailures > 0) return { status: "degraded", consecutiveFailures };
  return { status: "healthy", consecutiveFailures };
}

/** The components (each 0..1, null when unknown) from a window's figures. */
export function buildComponents(f: {
  availabilityLower: number | null;
  p50: number | null;
  p95: number | null;
  lagMeanSeconds: number | null;
  errorRate: number | null;
  capabilities: number | null;
}): EndpointScore["components"] {
  const L = SCORING.latency;
  return {
    availability: f.availabilityLower,
    latency:
      f.p50 === null || f.p95 === null
        ? null
        : L.p50Share * (L.p50RefMs / (L.p50RefMs + f.p50)) + (1 - L.p50Share) * (L.p95RefMs / (L.p95RefMs + f.p95)),
    lag: f.lagMeanSeconds === null ? null : SCORING.lag.refSeconds / (SCORING.lag.refSeconds + f.lagMeanSeconds),
    errors: f.errorRate === null ? null : 1 - f.errorRate,
    capabilities: f.capabilities,
  };
}

/** 0..100 from the components, weights renormalised over the known ones; without a success only availability counts. */
export function totalScore(components: EndpointScore["components"], okCount: number): number {
  let sum = 0;
  let weight = 0;
  for (const key of Object.keys(SCORING.weights) as Array<keyof typeof SCORING.weights>) {
    const c = components[key];
    if (c === null) continue;
    sum += SCORING.weights[key] * c;
    weight += SCORING.weights[key];
  }
  return okCount === 0 ? 100 * (components.availability ?? 0) : weight ? (100 * sum) / weight : 0;
}

/** Scores one endpoint over one rolling window. Pure: same samples, same score. */
export function scoreEndpoint(input: EndpointWindow): EndpointScore {
  const windowMs = SCORING.windows[input.window];
  const samples = input.samples
    .filter((s) => s.at <= input.now && s.at > input.now - windowMs)
    .sort((a, b) => a.at - b.at);
  const n = samples.length;
  const okSamples = samples.filter((s) => s.ok);
  const answered = samples.filter((s) => s.answered);
  const availability = {
    point: n ? okSamples.length / n : 0,
    lower: wilsonLowerBound(okSamples.length, n, SCORING.availability.z),
  };

  const byRegionValues = new Map<string, number[]>();
  for (const s of okSamples) {
    if (s.ttfbMs === null) continue;
    const key = s.region ?? "default";
    byRegionValues.set(key, [...(byRegionValues.get(key) ?? []), s.ttfbMs]);
  }
  const byRegion: Record<string, LatencyStats> = {};
  for (const [region, values] of byRegionValues) byRegion[region] = latencyStats(values);
  const regional = input.region ? byRegionValues.get(input.region) : undefined;
  const all = [...byRegionValues.values()].flat();
  const lat = latencyStats(regional && regional.length > 0 ? regional : all);

  const lags = okSamples.map((s) => s.lagBlocks).filter((v): v is number => v !== null);
  const meanLag = mean(lags);
  const lag = {
    meanBlocks: meanLag,
    p95Blocks: quantile(lags, 0.95),
    meanSeconds: meanLag === null ? null : (meanLag * input.blockIntervalMs) / 1000,
  };
  const errorRate = answered.length ? answered.filter((s) => s.answeredError).length / answered.length : 0;
  const rateLimitedRate = n ? samples.filter((s) => s.rateLimited).length / n : 0;
  const caps = capabilityScore(input.capabilities);

  const components = buildComponents({
    availabilityLower: n ? availability.lower : null,
    p50: lat.p50,
    p95: lat.p95,
    lagMeanSeconds: lag.meanSeconds,
    errorRate: answered.length ? errorRate : null,
    capabilities: caps,
  });
  const score = totalScore(components, okSamples.length);
  const fresh = summarizeFreshness(
    samples,
    input.freshness ?? freshnessLimits(input.blockIntervalMs),
    input.blockIntervalMs,
    SCORING.freshness.laggingShareAbove,
  );
  const { status, consecutiveFailures } = statusOf(samples, fresh.state);
  return {
    endpointId: input.endpointId,
    window: input.window,
    samples: n,
    okSamples: okSamples.length,
    availability,
    latency: { ...lat, byRegion },
    lag,
    freshness: { state: fresh.state, laggingShare: fresh.laggingShare, staleShare: fresh.staleShare },
    errorRate,
    rateLimitedRate,
    capabilityScore: caps,
    components,
    score: Math.round(score * 100) / 100,
    status,
    consecutiveFailures,
    lastOkAt: okSamples.at(-1)?.at ?? null,
  };
}
