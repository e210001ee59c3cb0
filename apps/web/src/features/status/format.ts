import { STATE_LABEL, type ComponentState } from "@rpcpulse/services/status";

export { formatUptime } from "./uptime-day-code.js";

export function stateLabel(state: ComponentState): string {
  return STATE_LABEL[state];
}

export const OVERALL_TEXT: Record<ComponentState, string> = {
  operational: "All systems operational",
  maintenance: "Maintenance in progress",
  unknown: "Waiting for data",
  degraded: "Degraded performance",
  partial_outage: "Partial outage",
  major_outage: "Major outage",
};

export function titleCase(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, " ");
}
