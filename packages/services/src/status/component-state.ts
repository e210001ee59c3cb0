import type { EndpointVantageProbe, NodeComponentTelemetry } from "@rpcpulse/db/status";
import { projectHead } from "@rpcpulse/domain";
import { DOWN_AFTER_MS, headAgeThresholdMs, lagThresholdBlocks } from "../fleet/node-status.js";

/**
 * Component states on status pages, worst last. Thresholds (documented in README "Status pages"):
 *
 * Node (from its agent's newest sample; the chain catalogue's block interval scales the lag rules):
 *  - major_outage:   agent silent for more than 3 collection intervals (30 s);
 *  - partial_outage: lag ≥ 10 × the lag threshold, or head older than 3 × the head-age threshold;
 *  - degraded:       syncing, lag ≥ lagThresholdBlocks (max(3, 30 s of blocks)), or head older than
 *                    headAgeThresholdMs (max(60 s, 10 block intervals));
 *  - operational:    otherwise.
 * Endpoint (newest probe of each vantage point within the last 10 minutes):
 *  - major_outage: no vantage point's newest probe succeeded;
 *  - partial_outage: fewer than half succeeded (the quorum is lost), or it lags like a node in
 *    partial outage (lag ≥ 10 × the lag threshold, or head older than 3 × the head-age threshold);
 *  - degraded: at least half but not all succeeded, it lags (lag ≥ lagThresholdBlocks or head older
 *    than headAgeThresholdMs, the node thresholds), or the median response time of the successful
 *    probes is ≥ 2,000 ms;
 *  - operational: all succeeded, fresh, under that latency.
 *  Lag and head age are the median over the server vantage points' newest successful probes (an
 *  agent's report never makes an endpoint look stale): lag against the stored consensus head nearest
 *  the probe, projected to the moment it answered; head age = that moment − the head block's time.
 * A component with no data yet (node never reported, endpoint not probed in 10 minutes) is
 * "unknown"; an active maintenance window overrides every state with "maintenance".
 */
export const COMPONENT_STATES = [
  "operational",
  "maintenance",
  "unknown",
  "degraded",
  "partial_outage",
  "major_outage",
] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];

export const STATE_LABEL: Record<ComponentState, string> = {
  operational: "Operational",
  maintenance: "Maintenance",
  unknown: "No data",
  degraded: "Degraded performance",
  partial_outage: "Partial outage",
  major_outage: "Major outage",
};

export const PROBE_FRESH_MS = 10 * 60_000;
export const SLOW_PROBE_MS = 2_000;

export function deriveNodeState(t: NodeComponentTelemetry | undefined, now: Date): ComponentState {
  if (!t) return "unknown";
  const seen = [t.sampleTime, t.lastSeenAt].filter((d): d is Date => d !== null);
  if (seen.length === 0) return "unknown";
  const lastSeen = Math.max(...seen.map((d) => d.getTime()));
  if (now.getTime() - lastSeen > DOWN_AFTER_MS) return "major_outage";
  const lagLimit = lagThresholdBlocks(t.blockIntervalMs);
  const headLimit = headAgeThresholdMs(t.blockIntervalMs);
  const headAge = t.headTime ? Math.max(0, now.getTime() - t.headTime.getTime()) : t.headAgeMs;
  if ((t.lagBlocks ?? 0) >= 10 * lagLimit || (headAge ?? 0) >= 3 * headLimit) return "partial_outage";
  if (t.syncing || (t.lagBlocks ?? 0) >= lagLimit || (headAge ?? 0) >= headLimit) return "degraded";
  return "operational";
}

function lowerMedian(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? null;
}

/** Lag and head age of an endpoint from its server vantage points' successful probes (see above). */
export function measureEndpointFreshness(probes: readonly EndpointVantageProbe[]): {
  lagBlocks: number | null;
  headAgeMs: number | null;
} {
  const lags: number[] = [];
  const ages: number[] = [];
  for (const p of probes) {
    if (!p.ok || p.vantageKind !== "server" || p.headBlock == null || !p.blockIntervalMs) continue;
    const at = p.time.getTime() + Math.max(0, p.ttfbMs ?? 0);
    if (p.decision) {
      const anchor = { block: p.decision.headBlock, anchorMs: p.decision.anchorTime.getTime() };
      lags.push(Math.max(0, projectHead(anchor, at, p.blockIntervalMs) - p.headBlock));
    }
    if (p.headTime) ages.push(Math.max(0, at - p.headTime.getTime()));
  }
  return { lagBlocks: lowerMedian(lags), headAgeMs: lowerMedian(ages) };
}

export function deriveEndpointState(probes: readonly EndpointVantageProbe[], now: Date): ComponentState {
  const fresh = probes.filter((p) => now.getTime() - p.time.getTime() <= PROBE_FRESH_MS);
  if (fresh.length === 0) return "unknown";
  const ok = fresh.filter((p) => p.ok);
  if (ok.length === 0) return "major_outage";
  if (ok.length * 2 < fresh.length) return "partial_outage";
  const interval = ok.find((p) => p.blockIntervalMs)?.blockIntervalMs;
  const { lagBlocks, headAgeMs } = measureEndpointFreshness(ok);
  const lagLimit = interval ? lagThresholdBlocks(interval) : Infinity;
  const headLimit = interval ? headAgeThresholdMs(interval) : Infinity;
  if ((lagBlocks ?? 0) >= 10 * lagLimit || (headAgeMs ?? 0) >= 3 * headLimit) return "partial_outage";
  if (ok.length < fresh.length) return "degraded";
  if ((lagBlocks ?? 0) >= lagLimit || (headAgeMs ?? 0) >= headLimit) return "degraded";
  const times = ok
    .map((p) => p.totalMs)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  const median = times.length > 0 ? (times[Math.floor((times.length - 1) / 2)] ?? 0) : 0;
  return median >= SLOW_PROBE_MS ? "degraded" : "operational";
}

const SEVERITY: Record<ComponentState, number> = {
  operational: 0,
  maintenance: 1,
  unknown: 1,
  degraded: 2,
  partial_outage: 3,
  major_outage: 4,
};

/** The page's overall state: the worst component state (unknown counts like maintenance). */
export function worstState(states: readonly ComponentState[]): ComponentState {
  let worst: ComponentState = "operational";
  for (const s of states) if (SEVERITY[s] > SEVERITY[worst]) worst = s;
  return worst;
}

/**
 * The state an open incident implies for the page banner: a page with an active incident never reads
 * "All systems operational", even while the components' own thresholds are not (yet) crossed.
 */
export function incidentImpactState(impact: string): ComponentState {
  if (impact === "critical") return "major_outage";
  if (impact === "major") return "partial_outage";
  if (impact === "minor") return "degraded";
  return "operational";
}

/** Uptime-bar colour class of a day. */
export type DayLevel = "none" | "ok" | "minor" | "partial" | "major";

export function dayLevel(uptime: number | null, degradedShare: number): DayLevel {
  if (uptime === null) return "none";
  if (uptime < 0.95) return "major";
  if (uptime < 0.99) return "partial";
  if (uptime < 0.999 || degradedShare >= 0.05) return "minor";
  return "ok";
}
