/** What the directory pages render: a narrow shape the service results are mapped into. */

/** The health column (RankedEndpoint.health): freshness first, then availability. */
export type DirectoryStatus = "healthy" | "degraded" | "lagging" | "stale" | "probation" | "dead";

export interface RegionLatency {
  region: string;
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface Capabilities {
  archive: boolean | null;
  websocket: boolean | null;
  trace: boolean | null;
  batch: boolean | null;
}

export interface RankedRow {
  id: string;
  rank: number;
  name: string;
  provider: string | null;
  url: string;
  score: number | null;
  status: DirectoryStatus;
  operatorVerified: boolean;
  /** Organization that proved it runs the endpoint, if any. */
  claimedBy?: string | null;
  latency: RegionLatency[];
  lagBlocks: number | null;
  /** Share of probes answered with a fresh head. */
  uptime: { h24: number | null; d7: number | null; d30: number | null };
  /** Share of probes answered while lagging or stale (not counted in uptime). */
  uptimeLagging?: { h24: number | null; d7: number | null; d30: number | null };
  capabilities: Capabilities;
}

/** Every column of the ranked table sorts; "rank" is the ranking's own order. */
export const RANKED_SORT_KEYS = [
  "rank",
  "name",
  "url",
  "score",
  "latency",
  "lag",
  "h24",
  "d7",
  "d30",
  "archive",
  "websocket",
  "trace",
  "batch",
] as const;
export type RankedSortKey = (typeof RANKED_SORT_KEYS)[number];

/** The value a ranked row sorts by in a column (null: no value, listed last). */
export function rankedSortValue(r: RankedRow, key: RankedSortKey): string | number | boolean | null {
  switch (key) {
    case "rank":
      return r.rank;
    case "name":
      return r.name;
    case "url":
      return r.url;
    case "score":
      return r.score;
    case "latency": {
      const p50 = r.latency.map((l) => l.p50Ms).filter((v): v is number => v !== null);
      return p50.length > 0 ? Math.min(...p50) : null;
    }
    case "lag":
      return r.lagBlocks;
    case "h24":
    case "d7":
    case "d30":
      return r.uptime[key];
    default:
      return r.capabilities[key];
  }
}

/** The text a ranked row is searched by. */
export function rankedSearchText(r: RankedRow): string {
  return [r.name, r.provider ?? "", r.claimedBy ?? "", r.url, r.status].join(" ");
}
