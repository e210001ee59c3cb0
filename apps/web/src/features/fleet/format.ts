/** Display helpers shared by the fleet and node pages (server and client). */

export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d`;
}

export function formatAgo(at: Date | string | null, now: Date): string {
  if (at === null) return "never";
  const ms = now.getTime() - new Date(at).getTime();
  return ms < 1000 ? "just now" : `${formatDuration(ms)} ago`;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return "—";
  if (ms === 0) return "0 ms";
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

export function formatCount(n: number | null): string {
  return n === null ? "—" : Math.round(n).toLocaleString("en-US");
}

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return "—";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

export function formatUtc(at: Date | string | null): string {
  return at === null ? "—" : `${new Date(at).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** Lag in blocks; "unknown" once the node reports but no consensus head or own reference exists yet. */
export function formatLag(lag: number | null, reporting: boolean): string {
  if (lag !== null) return formatCount(lag);
  return reporting ? "unknown" : "—";
}

export const UNKNOWN_LAG_TITLE =
  "Unknown: no consensus head for this network yet (two independent sources are needed) and no other node of this organization to compare with.";
