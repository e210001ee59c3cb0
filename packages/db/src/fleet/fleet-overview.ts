import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { estimateQuantile } from "../sql/latency-histogram.js";
import { dbDate, dbDateOrNull, dbNumber, dbNumberOrNull } from "../sql/row-values.js";

export const GetFleetOverviewParams = z.object({
  organizationId: z.string().min(1).max(64),
  /** Latency percentiles cover the 1-minute rollup buckets starting at or after this instant. */
  latencySince: z.coerce.date(),
  /**
   * Latency only for these nodes (the page on screen); omitted = every node. A 10,000-node
   * organization's 15 minutes of rollups are 150,000 rows, most of the query's time, while a page
   * shows 100 nodes' percentiles unless it is sorted by them.
   */
  latencyOf: z.array(z.string().uuid()).max(10_000).optional(),
  /** Only these nodes (the page on screen); omitted = every node of the organization. */
  nodeIds: z.array(z.string().uuid()).max(10_000).optional(),
});
export type GetFleetOverviewParams = z.input<typeof GetFleetOverviewParams>;

/** One node of an organization with its newest sample and its recent latency percentiles. */
export interface FleetOverviewRow {
  id: string;
  name: string;
  networkSlug: string;
  networkName: string;
  chainName: string;
  blockIntervalMs: number;
  apiFamily: string;
  clientName: string;
  clientVersion: string | null;
  region: string | null;
  createdAt: Date;
  lastSeenAt: Date | null;
  agentVersion: string | null;
  /** Newest sample (null when none has landed yet). */
  sampleTime: Date | null;
  headBlock: number | null;
  headTime: Date | null;
  headAgeMs: number | null;
  lagBlocks: number | null;
  syncing: boolean | null;
  tcpEstablished: number | null;
  tcpTimeWait: number | null;
  totalMs: number | null;
  /** From the latency histogram of the 1m rollups since latencySince; null without RPC samples. */
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  latencySamples: number;
}

// One statement: the organization's nodes, each joined with its newest sample through the
// node_latest pointer (a primary-key lookup per node) and with the summed latency histogram of its
// recent 1-minute buckets. Percentiles are estimated in JS from the histogram (latency-histogram.ts).
const latencySql = (nodeFilter: string) => `
  SELECT r.node_id,
         sum(r.rpc_samples) AS rpc_samples,
         min(r.total_ms_min) AS total_ms_min, max(r.total_ms_max) AS total_ms_max,
         ARRAY[sum(r.lat_le_5), sum(r.lat_le_10), sum(r.lat_le_25), sum(r.lat_le_50), sum(r.lat_le_100),
               sum(r.lat_le_250), sum(r.lat_le_500), sum(r.lat_le_1000), sum(r.lat_le_2500),
               sum(r.lat_le_5000), sum(r.lat_gt_5000)]::int8[] AS histogram
  FROM node_samples_1m r
  JOIN nodes n ON n.id = r.node_id
  WHERE n.organization_id = $1 AND r.bucket >= $2 AND ${nodeFilter}
  GROUP BY r.node_id`;

const FLEET_SQL = `
WITH lat AS (${latencySql("($3::uuid[] IS NULL OR r.node_id = ANY($3::uuid[]))")})
SELECT n.id, n.name, net.slug AS network_slug, net.name AS network_name, c.name AS chain_name,
       net.block_interval_ms, n.api_family::text AS api_family, n.client_name, n.client_version, n.region,
       n.created_at, n.last_seen_at, n.agent_version,
       s.time AS sample_time, s.head_block, s.head_time, s.head_age_ms, s.lag_blocks, s.syncing,
       s.tcp_established, s.tcp_time_wait, s.total_ms,
       lat.rpc_samples, lat.total_ms_min, lat.total_ms_max, lat.histogram
FROM nodes n
JOIN networks net ON net.id = n.network_id
JOIN chains c ON c.slug = net.chain_slug
LEFT JOIN node_latest l ON l.node_id = n.id
LEFT JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
LEFT JOIN lat ON lat.node_id = n.id
WHERE n.organization_id = $1 AND ($4::uuid[] IS NULL OR n.id = ANY($4::uuid[]))
ORDER BY n.name`;

const LATENCY_SQL = latencySql("r.node_id = ANY($3::uuid[])");

const str = z.string();
const strOrNull = z.string().nullable();
const Row = z.object({
  id: str,
  name: str,
  network_slug: str,
  network_name: str,
  chain_name: str,
  block_interval_ms: dbNumber,
  api_family: str,
  client_name: str,
  client_version: strOrNull,
  region: strOrNull,
  created_at: dbDate,
  last_seen_at: dbDateOrNull,
  agent_version: strOrNull,
  sample_time: dbDateOrNull,
  head_block: dbNumberOrNull,
  head_time: dbDateOrNull,
  head_age_ms: dbNumberOrNull,
  lag_blocks: dbNumberOrNull,
  syncing: z.boolean().nullable(),
  tcp_established: dbNumberOrNull,
  tcp_time_wait: dbNumberOrNull,
  total_ms: dbNumberOrNull,
  rpc_samples: dbNumberOrNull,
  total_ms_min: dbNumberOrNull,
  total_ms_max: dbNumberOrNull,
  histogram: z.array(dbNumber).nullable(),
});

type Histogram = Pick<z.infer<typeof Row>, "histogram" | "total_ms_min" | "total_ms_max">;

function quantileOf(r: Histogram, q: number): number | null {
  return r.histogram ? estimateQuantile(r.histogram, q, r.total_ms_min, r.total_ms_max) : null;
}

function toFleetRow(raw: unknown): FleetOverviewRow {
  const r = Row.parse(raw);
  const quantile = (q: number) => quantileOf(r, q);
  return {
    id: r.id,
    name: r.name,
    networkSlug: r.network_slug,
    networkName: r.network_name,
    chainName: r.chain_name,
    blockIntervalMs: r.block_interval_ms,
    apiFamily: r.api_family,
    clientName: r.client_name,
    clientVersion: r.client_version,
    region: r.region,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    agentVersion: r.agent_version,
    sampleTime: r.sample_time,
    headBlock: r.head_block,
    headTime: r.head_time,
    headAgeMs: r.head_age_ms,
    lagBlocks: r.lag_blocks,
    syncing: r.syncing,
    tcpEstablished: r.tcp_established,
    tcpTimeWait: r.tcp_time_wait,
    totalMs: r.total_ms,
    latencyP50Ms: quantile(0.5),
    latencyP95Ms: quantile(0.95),
    latencySamples: r.rpc_samples ?? 0,
  };
}

/** Every node of an organization for the fleet overview, by name (one round trip). */
export async function getFleetOverview(sql: SqlClient, params: GetFleetOverviewParams): Promise<FleetOverviewRow[]> {
  const p = GetFleetOverviewParams.parse(params);
  const { rows } = await sql.query(FLEET_SQL, [
    p.organizationId,
    p.latencySince,
    p.latencyOf ?? null,
    p.nodeIds ?? null,
  ]);
  return rows.map(toFleetRow);
}

const LatencyRow = Row.pick({ rpc_samples: true, total_ms_min: true, total_ms_max: true, histogram: true }).extend({
  node_id: str,
});

export type FleetLatencyRow = Pick<FleetOverviewRow, "latencyP50Ms" | "latencyP95Ms" | "latencySamples">;

/** Recent latency percentiles of some of an organization's nodes (a page of the fleet), by node id. */
export async function listFleetLatency(
  sql: SqlClient,
  params: GetFleetOverviewParams & { latencyOf: string[] },
): Promise<Map<string, FleetLatencyRow>> {
  const p = GetFleetOverviewParams.parse(params);
  const out = new Map<string, FleetLatencyRow>();
  if (!p.latencyOf || p.latencyOf.length === 0) return out;
  const { rows } = await sql.query(LATENCY_SQL, [p.organizationId, p.latencySince, p.latencyOf]);
  for (const raw of rows) {
    const r = LatencyRow.parse(raw);
    out.set(r.node_id, {
      latencyP50Ms: quantileOf(r, 0.5),
      latencyP95Ms: quantileOf(r, 0.95),
      latencySamples: r.rpc_samples ?? 0,
    });
  }
  return out;
}
