import type { EndpointDetailResponse } from "@rpcpulse/services/directory";
import type { BadgeFacts } from "./badge-metric.js";

const HEALTH = ["healthy", "degraded", "lagging", "stale", "probation", "dead"] as const;

/** Fresh-answer uptime of a window (components.uptime.h24, stored by the ranking job). */
export function uptime24h(components: Record<string, unknown> | undefined): number | null {
  const u = components?.uptime as Record<string, unknown> | undefined;
  return typeof u?.h24 === "number" ? u.h24 : null;
}

/** Badge facts from the endpoint detail: the 24 h window over all regions (any window if none yet). */
export function factsFromDetail(detail: EndpointDetailResponse): BadgeFacts {
  const w =
    detail.windows.find((x) => x.window === "24h" && x.region === "all") ??
    detail.windows.find((x) => x.region === "all") ??
    null;
  const health = HEALTH.find((h) => h === w?.health);
  const status = health ?? (detail.status === "active" ? "healthy" : detail.status);
  return {
    status,
    score: w ? w.score : null,
    uptime24h: w && w.window === "24h" ? uptime24h(w.components) : null,
    latencyP50Ms: w ? w.p50Ms : null,
  };
}
