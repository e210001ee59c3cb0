/** Display helpers shared by the fleet and node pages (server and client); times and sizes are in lib/format. */

export function formatMs(ms: number | null): string {
  if (ms === null) return "—";
  if (ms === 0) return "0 ms";
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

export function formatCount(n: number | null): string {
  return n === null ? "—" : Math.round(n).toLocaleString("en-US");
}

/** Lag in blocks; "unknown" once the node reports but no consensus head or own reference exists yet. */
export function formatLag(lag: number | null, reporting: boolean): string {
  if (lag !== null) return formatCount(lag);
  return reporting ? "unknown" : "—";
}

export const UNKNOWN_LAG_TITLE =
  "Unknown: no consensus head for this network yet (two independent sources are needed) and no other node of this organization to compare with.";
