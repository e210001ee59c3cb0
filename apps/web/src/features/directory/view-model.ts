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
