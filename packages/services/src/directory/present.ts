import type { RankedListRow } from "@rpcpulse/db/directory";
import { EndpointHealth, VantageWeighing, type RankedEndpoint } from "./schemas.js";

/**
 * "Operator verified": the organization holding the endpoint proved control of it (its claim was
 * verified by a DNS TXT record or the well-known token). Never a node's public URL or an agent's report.
 */
export function isOperatorVerified(operatorVerifiedAt: Date | null): boolean {
  return operatorVerifiedAt !== null;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

type Caps = NonNullable<RankedListRow["capabilities"]>;

function shares(value: unknown): RankedEndpoint["uptime"] {
  const u = (value ?? {}) as Record<string, unknown>;
  return { h24: num(u.h24), d7: num(u.d7), d30: num(u.d30) };
}

/** Scoring status of a stored snapshot row (an unknown value reads "degraded", never "healthy"). */
export function healthOf(scoreStatus: string): RankedEndpoint["health"] {
  return EndpointHealth.catch("degraded").parse(scoreStatus);
}

/** How vantage points were weighed, as stored with a snapshot row (components.vantage); null if absent. */
export function vantageOf(components: Record<string, unknown>): VantageWeighing | null {
  const parsed = VantageWeighing.safeParse(components.vantage);
  return parsed.success ? parsed.data : null;
}

/** Capability flags as the list shows them: true only when the last check saw it work. */
export function capabilityFlags(caps: Caps | null): RankedEndpoint["capabilities"] {
  const m = caps?.methods ?? {};
  return {
    archive: caps?.archive === true,
    websocket: caps?.websocket === true,
    trace: m.trace === true,
    debug: m.debug === true,
    batch: caps?.batch === true,
    cors: caps?.cors === true,
    logs: caps?.logsMaxRange != null && caps.logsMaxRange > 0,
  };
}

/** Beacon-style features: supported method groups, then capability flags. */
export function featuresOf(caps: Caps | null): string[] {
  if (!caps) return [];
  const groups = Object.entries(caps.methods)
    .filter(([, v]) => v === true)
    .map(([k]) => k)
    .sort();
  const flags = Object.entries(capabilityFlags(caps))
    .filter(([, v]) => v)
    .map(([k]) => k);
  return [...new Set([...groups, ...flags])];
}

export function presentRankedRow(row: RankedListRow): RankedEndpoint {
  const c = row.components;
  const components: Record<string, number | null> = {};
  for (const key of ["availability", "lag", "latency", "errors", "capabilities"]) components[key] = num(c[key]);
  const updatedAt = row.updatedAt.toISOString();
  const caps = row.capabilities;
  return {
    id: row.endpointId,
    url: row.url,
    wsUrl: caps?.websocket ? caps.wsUrl : null,
    name: row.name,
    provider: row.provider,
    family: row.family,
    status: row.listingStatus,
    health: healthOf(row.scoreStatus),
    rank: row.rank,
    score: Math.round(row.score * 100) / 100,
    components,
    latency: { p50Ms: row.p50Ms, p95Ms: row.p95Ms },
    lagBlocks: row.lagBlocks,
    headRegressions: row.headRegressions,
    uptime: shares(c.uptime),
    uptimeLagging: shares(c.uptimeLagging),
    samples: row.samples,
    capabilities: capabilityFlags(caps),
    capabilitiesCheckedAt: caps ? caps.checkedAt.toISOString() : null,
    clientVersion: caps?.clientVersion ?? null,
    operatorVerified: isOperatorVerified(row.operatorVerifiedAt),
    claimedBy: row.claimedBy,
    updatedAt,
    endpoint: row.url,
    version: caps?.clientVersion ?? null,
    success: row.okSamples,
    fail: num(c.consecutiveFailures) ?? 0,
    features: featuresOf(caps),
    updated_at: updatedAt,
  };
}
