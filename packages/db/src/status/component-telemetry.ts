import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbDateOrNull, dbNumber, dbNumberOrNull } from "../sql/row-values.js";

/** Newest telemetry of status-page nodes and recent probes of status-page endpoints. */

const Ids = z.array(z.string().uuid()).max(2_000);

export interface NodeComponentTelemetry {
  nodeId: string;
  blockIntervalMs: number;
  lastSeenAt: Date | null;
  sampleTime: Date | null;
  lagBlocks: number | null;
  headTime: Date | null;
  headAgeMs: number | null;
  syncing: boolean | null;
}

const NodeRow = z
  .object({
    id: z.string(),
    block_interval_ms: dbNumber,
    last_seen_at: dbDateOrNull,
    sample_time: dbDateOrNull,
    lag_blocks: dbNumberOrNull,
    head_time: dbDateOrNull,
    head_age_ms: dbNumberOrNull,
    syncing: z.boolean().nullable(),
  })
  .transform((r): NodeComponentTelemetry => ({
    nodeId: r.id,
    blockIntervalMs: r.block_interval_ms,
    lastSeenAt: r.last_seen_at,
    sampleTime: r.sample_time,
    lagBlocks: r.lag_blocks,
    headTime: r.head_time,
    headAgeMs: r.head_age_ms,
    syncing: r.syncing,
  }));

/** One row per node: newest sample through node_latest (primary-key lookups). */
export async function queryNodeComponentTelemetry(
  sql: SqlClient,
  nodeIds: readonly string[],
): Promise<NodeComponentTelemetry[]> {
  const ids = Ids.parse([...nodeIds]);
  if (ids.length === 0) return [];
  const { rows } = await sql.query(
    `SELECT n.id::text AS id, net.block_interval_ms, n.last_seen_at, s.time AS sample_time, s.lag_blocks,
            s.head_time, s.head_age_ms, s.syncing
     FROM nodes n
     JOIN networks net ON net.id = n.network_id
     LEFT JOIN node_latest l ON l.node_id = n.id
     LEFT JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
     WHERE n.id = ANY($1::uuid[])`,
    [ids],
  );
  return rows.map((r) => NodeRow.parse(r));
}

export interface EndpointVantageProbe {
  endpointId: string;
  vantagePointId: string;
  time: Date;
  ok: boolean;
  totalMs: number | null;
  /** Freshness inputs (absent: not known): what the probe read, who probed, the decision nearest it. */
  vantageKind?: "server" | "agent";
  ttfbMs?: number | null;
  headBlock?: number | null;
  headTime?: Date | null;
  blockIntervalMs?: number;
  /** Stored consensus decision nearest the probe (within 3 minutes): project it to the probe's time. */
  decision?: { headBlock: number; anchorTime: Date } | null;
}

const ProbeRow = z
  .object({
    endpoint_id: z.string(),
    vantage_point_id: z.string(),
    time: dbDate,
    ok: z.boolean(),
    total_ms: dbNumberOrNull,
    vantage_kind: z.enum(["server", "agent"]),
    ttfb_ms: dbNumberOrNull,
    head_block: dbNumberOrNull,
    head_time: dbDateOrNull,
    block_interval_ms: dbNumber,
    decision_head: dbNumberOrNull,
    decision_anchor: dbDateOrNull,
  })
  .transform((r): EndpointVantageProbe => ({
    endpointId: r.endpoint_id,
    vantagePointId: r.vantage_point_id,
    time: r.time,
    ok: r.ok,
    totalMs: r.total_ms,
    vantageKind: r.vantage_kind,
    ttfbMs: r.ttfb_ms,
    headBlock: r.head_block,
    headTime: r.head_time,
    blockIntervalMs: r.block_interval_ms,
    decision:
      r.decision_head !== null && r.decision_anchor !== null
        ? { headBlock: r.decision_head, anchorTime: r.decision_anchor }
        : null,
  }));

/** Newest probe per (endpoint, vantage point) since `since`, with the consensus decision nearest it. */
export async function queryLatestEndpointProbes(
  sql: SqlClient,
  params: { endpointIds: readonly string[]; since: Date },
): Promise<EndpointVantageProbe[]> {
  const ids = Ids.parse([...params.endpointIds]);
  if (ids.length === 0) return [];
  const { rows } = await sql.query(
    `WITH latest AS (
       SELECT DISTINCT ON (endpoint_id, vantage_point_id)
              endpoint_id, vantage_point_id, time, ok, total_ms, ttfb_ms, head_block, head_time
       FROM probe_results
       WHERE endpoint_id = ANY($1::uuid[]) AND time >= $2
       ORDER BY endpoint_id, vantage_point_id, time DESC)
     SELECT l.endpoint_id::text AS endpoint_id, l.vantage_point_id::text AS vantage_point_id, l.time, l.ok,
            l.total_ms, v.kind::text AS vantage_kind, l.ttfb_ms, l.head_block, l.head_time, n.block_interval_ms,
            d.head_block AS decision_head, d.anchor_time AS decision_anchor
     FROM latest l
     JOIN vantage_points v ON v.id = l.vantage_point_id
     JOIN public_endpoints e ON e.id = l.endpoint_id
     JOIN networks n ON n.id = e.network_id
     LEFT JOIN LATERAL (
       SELECT h.head_block, h.anchor_time FROM network_heads h
       WHERE h.network_id = e.network_id AND h.time BETWEEN l.time - interval '3 minutes' AND l.time + interval '3 minutes'
       ORDER BY abs(extract(epoch FROM h.time - l.time)), h.time LIMIT 1) d ON true`,
    [ids, params.since],
  );
  return rows.map((r) => ProbeRow.parse(r));
}

export interface ComponentHourPoint {
  refId: string;
  bucket: Date;
  /** Mean response time in the hour (node: local RPC; endpoint: probes across vantage points). */
  avgMs: number | null;
  /** Node only: worst lag in the hour. */
  lagBlocksMax: number | null;
}

const HourRow = z
  .object({ ref_id: z.string(), bucket: dbDate, avg_ms: dbNumberOrNull, lag_blocks_max: dbNumberOrNull })
  .transform((r): ComponentHourPoint => ({
    refId: r.ref_id,
    bucket: r.bucket,
    avgMs: r.avg_ms,
    lagBlocksMax: r.lag_blocks_max,
  }));

/** Hourly response time and lag of nodes and endpoints in [from, to) from the 1-hour rollups. */
export async function queryComponentHourSeries(
  sql: SqlClient,
  params: { nodeIds: readonly string[]; endpointIds: readonly string[]; from: Date; to: Date },
): Promise<ComponentHourPoint[]> {
  const nodeIds = Ids.parse([...params.nodeIds]);
  const endpointIds = Ids.parse([...params.endpointIds]);
  const { rows } = await sql.query(
    `SELECT node_id::text AS ref_id, bucket,
            CASE WHEN coalesce(rpc_samples, 0) > 0 THEN total_ms_sum / rpc_samples END AS avg_ms,
            lag_blocks_max
     FROM node_samples_1h WHERE node_id = ANY($1::uuid[]) AND bucket >= $3 AND bucket < $4
     UNION ALL
     SELECT endpoint_id::text, bucket,
            CASE WHEN sum(coalesce(latency_samples, 0)) > 0 THEN sum(total_ms_sum) / sum(latency_samples) END,
            NULL::int
     FROM probe_results_1h WHERE endpoint_id = ANY($2::uuid[]) AND bucket >= $3 AND bucket < $4
     GROUP BY endpoint_id, bucket
     ORDER BY 2`,
    [nodeIds, endpointIds, params.from, params.to],
  );
  return rows.map((r) => HourRow.parse(r));
}
