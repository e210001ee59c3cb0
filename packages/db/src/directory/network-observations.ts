import { projectHead } from "@rpcpulse/domain";
import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber, dbNumberOrNull } from "../sql/row-values.js";

/** Latest probe per endpoint of a network since `since`: the input of the network-head consensus. */
export interface HeadObservationRow {
  endpointId: string;
  ok: boolean;
  headBlock: number | null;
  headTime: Date | null;
  observedAt: Date;
}

export async function listLatestHeadObservations(
  sql: SqlClient,
  params: { network: string; since: Date },
): Promise<HeadObservationRow[]> {
  const { rows } = await sql.query(
    `SELECT DISTINCT ON (p.endpoint_id) p.endpoint_id, p.ok, p.head_block, p.head_time, p.time
     FROM probe_results p
     WHERE p.endpoint_id IN (SELECT e.id FROM public_endpoints e JOIN networks n ON n.id = e.network_id WHERE n.slug = $1)
       AND p.time >= $2
     ORDER BY p.endpoint_id, p.time DESC`,
    [params.network, params.since],
  );
  return z
    .array(
      z.object({
        endpoint_id: z.string(),
        ok: z.boolean(),
        head_block: dbNumberOrNull,
        head_time: dbDate.nullable(),
        time: dbDate,
      }),
    )
    .parse(rows)
    .map((r) => ({
      endpointId: r.endpoint_id,
      ok: r.ok,
      headBlock: r.head_block,
      headTime: r.head_time,
      observedAt: r.time,
    }));
}

/** One bucket of an endpoint's lag: its highest head against the network's consensus head at that probe. */
export interface LagPoint {
  time: Date;
  headBlock: number;
  networkHead: number;
  lagBlocks: number;
}

function lagSource(resolution: "raw" | "1m" | "1h"): string {
  if (resolution === "raw")
    return `SELECT date_bin('1 minute', p.time, TIMESTAMPTZ '2000-01-01') AS bucket, p.endpoint_id, p.head_block AS head
            FROM probe_results p JOIN vantage_points v ON v.id = p.vantage_point_id AND v.kind = 'server'
            WHERE p.ok AND p.head_block IS NOT NULL AND p.time >= $2 AND p.time < $3
              AND p.endpoint_id IN (SELECT id FROM peers)`;
  const table = resolution === "1m" ? "probe_results_1m" : "probe_results_1h";
  return `SELECT r.bucket, r.endpoint_id, r.head_block_max AS head
          FROM ${table} r JOIN vantage_points v ON v.id = r.vantage_point_id AND v.kind = 'server'
          WHERE r.head_block_max IS NOT NULL AND r.bucket >= $2 AND r.bucket < $3 AND r.endpoint_id IN (SELECT id FROM peers)`;
}

/**
 * Fallback where no consensus decision is stored (before the worker decided any, or pruned): the network
 * head of a bucket is the second-highest head any endpoint of the network reached in it when three or
 * more answered (one bogus future head moves nothing), the highest otherwise. Server probes only.
 */
async function getPeerLagSeries(
  sql: SqlClient,
  params: { endpointId: string; from: Date; to: Date; resolution: "raw" | "1m" | "1h" },
): Promise<LagPoint[]> {
  const { rows } = await sql.query(
    `WITH peers AS (
       SELECT e2.id FROM public_endpoints e1 JOIN public_endpoints e2 ON e2.network_id = e1.network_id WHERE e1.id = $1),
     src AS (${lagSource(params.resolution)}),
     per_endpoint AS (SELECT bucket, endpoint_id, max(head) AS head FROM src GROUP BY bucket, endpoint_id),
     net AS (
       SELECT bucket, (array_agg(head ORDER BY head DESC))[CASE WHEN count(*) >= 3 THEN 2 ELSE 1 END] AS network_head
       FROM per_endpoint GROUP BY bucket)
     SELECT o.bucket AS time, o.head, n.network_head
     FROM per_endpoint o JOIN net n USING (bucket)
     WHERE o.endpoint_id = $1
     ORDER BY o.bucket`,
    [params.endpointId, params.from, params.to],
  );
  return z
    .array(z.object({ time: dbDate, head: dbNumber, network_head: dbNumber }))
    .parse(rows)
    .map((r) => ({
      time: r.time,
      headBlock: r.head,
      networkHead: r.network_head,
      lagBlocks: Math.max(0, r.network_head - r.head),
    }));
}

/** A stored decision this far from a probe is not used for it (SCORING.lag.decisionMaxDistanceMs). */
const DECISION_MAX_DISTANCE = "180 seconds";

/**
 * Per bucket (a minute, or an hour at 1h resolution), the endpoint's server probe with the highest
 * head, with the stored consensus decision (network_heads) nearest the moment it answered (probe start
 * + time to first byte, within 3 minutes). Raw probes only.
 */
async function getDecisionLagSeries(
  sql: SqlClient,
  params: { endpointId: string; from: Date; to: Date; resolution: "raw" | "1m" | "1h" },
): Promise<LagPoint[]> {
  const { rows } = await sql.query(
    `WITH ep AS (
       SELECT e.network_id, n.block_interval_ms FROM public_endpoints e JOIN networks n ON n.id = e.network_id
       WHERE e.id = $1),
     probes AS (
       SELECT date_bin($4::interval, p.time, TIMESTAMPTZ '2000-01-03') AS bucket,
              p.time + make_interval(secs => coalesce(p.ttfb_ms, 0) / 1000.0) AS at, p.head_block AS head
       FROM probe_results p JOIN vantage_points v ON v.id = p.vantage_point_id AND v.kind = 'server'
       WHERE p.endpoint_id = $1 AND p.ok AND p.head_block IS NOT NULL AND p.time >= $2 AND p.time < $3),
     top AS (SELECT DISTINCT ON (bucket) bucket, at, head FROM probes ORDER BY bucket, head DESC, at DESC)
     SELECT t.bucket AS time, t.at, t.head, ep.block_interval_ms, d.head_block AS decision_head, d.anchor_time
     FROM top t CROSS JOIN ep
     JOIN LATERAL (
       SELECT x.head_block, x.anchor_time FROM (
         (SELECT h.head_block, h.anchor_time, h.time FROM network_heads h
          WHERE h.network_id = ep.network_id AND h.time <= t.at AND h.time >= t.at - $5::interval
          ORDER BY h.time DESC LIMIT 1)
         UNION ALL
         (SELECT h.head_block, h.anchor_time, h.time FROM network_heads h
          WHERE h.network_id = ep.network_id AND h.time > t.at AND h.time <= t.at + $5::interval
          ORDER BY h.time LIMIT 1)) x
       ORDER BY abs(extract(epoch FROM x.time - t.at)), x.time LIMIT 1) d ON true
     ORDER BY t.bucket`,
    [
      params.endpointId,
      params.from,
      params.to,
      params.resolution === "1h" ? "1 hour" : "1 minute",
      DECISION_MAX_DISTANCE,
    ],
  );
  return z
    .array(
      z.object({
        time: dbDate,
        at: dbDate,
        head: dbNumber,
        block_interval_ms: dbNumber,
        decision_head: dbNumber,
        anchor_time: dbDate,
      }),
    )
    .parse(rows)
    .map((r) => {
      const anchor = { block: r.decision_head, anchorMs: r.anchor_time.getTime() };
      const networkHead = projectHead(anchor, r.at.getTime(), r.block_interval_ms);
      return { time: r.time, headBlock: r.head, networkHead, lagBlocks: Math.max(0, networkHead - r.head) };
    });
}

/**
 * Blocks behind the network per bucket. Where the worker stored consensus decisions, the endpoint's
 * highest-head server probe of the bucket is measured against the decision nearest it, projected to the
 * moment it answered (exact, like the ranking); elsewhere the peers' heads of the bucket decide
 * (getPeerLagSeries: second-highest endpoint head, from raw probes or the rollups).
 */
export async function getEndpointLagSeries(
  sql: SqlClient,
  params: { endpointId: string; from: Date; to: Date; resolution: "raw" | "1m" | "1h" },
): Promise<LagPoint[]> {
  const [decided, peers] = await Promise.all([getDecisionLagSeries(sql, params), getPeerLagSeries(sql, params)]);
  const byTime = new Map<number, LagPoint>(peers.map((p) => [p.time.getTime(), p]));
  for (const p of decided) byTime.set(p.time.getTime(), p);
  return [...byTime.values()].sort((a, b) => a.time.getTime() - b.time.getTime());
}

/** A failed probe of an endpoint, newest first (endpoint page). */
export interface ProbeErrorRow {
  time: Date;
  region: string;
  errorClass: string | null;
  httpStatus: number | null;
  message: string | null;
  rateLimited: boolean;
}

export async function listRecentProbeErrors(
  sql: SqlClient,
  params: { endpointId: string; since: Date; limit: number },
): Promise<ProbeErrorRow[]> {
  const { rows } = await sql.query(
    `SELECT p.time, v.region, p.error_class, p.http_status, p.error_message, p.rate_limited
     FROM probe_results p JOIN vantage_points v ON v.id = p.vantage_point_id
     WHERE p.endpoint_id = $1 AND NOT p.ok AND p.time >= $2
     ORDER BY p.time DESC LIMIT $3`,
    [params.endpointId, params.since, Math.min(200, Math.max(1, params.limit))],
  );
  return z
    .array(
      z.object({
        time: dbDate,
        region: z.string(),
        error_class: z.string().nullable(),
        http_status: dbNumberOrNull,
        error_message: z.string().nullable(),
        rate_limited: z.boolean(),
      }),
    )
    .parse(rows)
    .map((r) => ({
      time: r.time,
      region: r.region,
      errorClass: r.error_class,
      httpStatus: r.http_status,
      message: r.error_message,
      rateLimited: r.rate_limited,
    }));
}
