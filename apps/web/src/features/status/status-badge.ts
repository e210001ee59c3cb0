import type { ComponentState, PublicStatusPage } from "@rpcpulse/services/status";
import { BADGE_COLORS, type BadgeSpec } from "@/features/directory/badge-svg.js";
import { formatUptime, stateLabel } from "./format.js";

const STATE_COLOR: Record<ComponentState, string> = {
  operational: BADGE_COLORS.green,
  maintenance: BADGE_COLORS.blue,
  unknown: BADGE_COLORS.grey,
  degraded: BADGE_COLORS.yellow,
  partial_outage: BADGE_COLORS.orange,
  major_outage: BADGE_COLORS.red,
};

export type StatusBadgeMetric = "status" | "uptime";

export function parseStatusBadgeMetric(value: string | null): StatusBadgeMetric | null {
  if (value === null || value === "" || value === "status") return "status";
  if (value === "uptime") return "uptime";
  return null;
}

/**
 * "page.svg" → the page's overall state / mean 90-day uptime; "<componentId>.svg" → one listed
 * component. null = not on this page (the caller answers 404 without saying more).
 */
export function statusBadgeFor(snapshot: PublicStatusPage, file: string, metric: StatusBadgeMetric): BadgeSpec | null {
  if (!file.endsWith(".svg")) return null;
  const name = file.slice(0, -4);
  if (name === "page") {
    if (metric === "status") {
      return {
        label: snapshot.page.title.slice(0, 40),
        message: stateLabel(snapshot.overall).toLowerCase(),
        color: STATE_COLOR[snapshot.overall],
      };
    }
    const values = snapshot.components.map((c) => c.uptime90).filter((v): v is number => v !== null);
    const mean = values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : null;
    return { label: "uptime 90d", message: formatUptime(mean), color: uptimeColor(mean) };
  }
  const component = snapshot.components.find((c) => c.id === name);
  if (!component) return null;
  if (metric === "status") {
    return {
      label: component.name.slice(0, 40),
      message: stateLabel(component.state).toLowerCase(),
      color: STATE_COLOR[component.state],
    };
  }
  return {
    label: `${component.name.slice(0, 30)} 90d`,
    message: formatUptime(component.uptime90),
    color: uptimeColor(component.uptime90),
  };
}

function uptimeColor(v: number | null): string {
  if (v === null) return BADGE_COLORS.grey;
  if (v >= 0.999) return BADGE_COLORS.green;
  if (v >= 0.99) return BADGE_COLORS.yellow;
  if (v >= 0.95) return BADGE_COLORS.orange;
  return BADGE_COLORS.red;
}
