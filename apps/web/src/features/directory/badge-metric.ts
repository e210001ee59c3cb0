import { BADGE_COLORS, type BadgeSpec } from "./badge-svg.js";
import { formatLatency, formatUptime } from "./format.js";

export const BADGE_METRICS = ["status", "uptime", "latency", "score"] as const;
export type BadgeMetric = (typeof BADGE_METRICS)[number];

export function parseBadgeMetric(value: string | null): BadgeMetric | null {
  if (value === null || value === "") return "status";
  return (BADGE_METRICS as readonly string[]).includes(value) ? (value as BadgeMetric) : null;
}

/** What a badge can show about one endpoint (mapped from the directory's endpoint detail). */
export interface BadgeFacts {
  status: "healthy" | "degraded" | "lagging" | "stale" | "probation" | "dead";
  score: number | null;
  /** 0..1 over the last 24 h: answered with a fresh head (lagging answers are not up). */
  uptime24h: number | null;
  /** Time to first byte p50 over the last 24 h, ms. */
  latencyP50Ms: number | null;
}

const STATUS: Record<BadgeFacts["status"], { message: string; color: string }> = {
  healthy: { message: "up", color: BADGE_COLORS.green },
  degraded: { message: "degraded", color: BADGE_COLORS.yellow },
  lagging: { message: "lagging", color: BADGE_COLORS.orange },
  stale: { message: "stale", color: BADGE_COLORS.red },
  probation: { message: "probation", color: BADGE_COLORS.blue },
  dead: { message: "down", color: BADGE_COLORS.red },
};

function byThreshold(value: number, steps: Array<[number, string]>, otherwise: string): string {
  for (const [limit, color] of steps) if (value >= limit) return color;
  return otherwise;
}

export function badgeFor(metric: BadgeMetric, facts: BadgeFacts): BadgeSpec {
  const none = { message: "no data", color: BADGE_COLORS.grey };
  switch (metric) {
    case "status":
      return { label: "rpc", ...STATUS[facts.status] };
    case "uptime": {
      const u = facts.uptime24h;
      if (u === null) return { label: "uptime 24h", ...none };
      return {
        label: "uptime 24h",
        message: formatUptime(u).replace(" %", "%"),
        color: byThreshold(
          u,
          [
            [0.999, BADGE_COLORS.green],
            [0.99, BADGE_COLORS.yellow],
            [0.95, BADGE_COLORS.orange],
          ],
          BADGE_COLORS.red,
        ),
      };
    }
    case "latency": {
      const ms = facts.latencyP50Ms;
      if (ms === null) return { label: "latency p50", ...none };
      return {
        label: "latency p50",
        message: formatLatency(ms),
        color: byThreshold(
          -ms,
          [
            [-100, BADGE_COLORS.green],
            [-300, BADGE_COLORS.yellow],
            [-1000, BADGE_COLORS.orange],
          ],
          BADGE_COLORS.red,
        ),
      };
    }
    case "score": {
      const s = facts.score;
      if (s === null) return { label: "rpc score", ...none };
      return {
        label: "rpc score",
        message: `${Math.round(s)}/100`,
        color: byThreshold(
          Math.round(s),
          [
            [90, BADGE_COLORS.green],
            [75, BADGE_COLORS.yellow],
            [50, BADGE_COLORS.orange],
          ],
          BADGE_COLORS.red,
        ),
      };
    }
  }
}
