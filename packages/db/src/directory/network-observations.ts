import { z } from "zod";
import type { SqlClient } from "../sql-client.js";
import { dbDate, dbNumber, dbNumberOrNull } from "../timeseries/row-values.js";

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

/** One bucket of an endpoint's lag: its highest head against the network's (the second-highest endpoint head). */
export interface LagPoint {
  time: Date;
  headBlock: number;
  networkHead: number;
  lagBlocks: number;
}

function lagSource(resolution: "raw" | "1m" | "1h"): string {
  if (resolution === "raw")
    return `SELECT date_bin('1 minute', time, TIMESTAMPTZ '2000-01-01') AS bucket, endpoint_id, head_block AS head
            FROM probe_results WHERE ok AND head_block IS NOT NULL AND time >= $2 AND time < $3
              AND endpoint_id IN (SELECT id FROM peers)`;
  const table = resolution === "1m" ? "probe_results_1m" : "probe_results_1h";
  return `SELECT bucket, endpoint_id, head_block_max AS head FROM ${table}
          WHERE head_block_max IS NOT NULL AND bucket >= $2 AND bucket < $3 AND endpoint_id IN (SELECT id FROM peers)`;
}

/**
 * Blocks behind the network per bucket: the network head of a bucket is the second-highest head any
 * endpoint of the network reached in it when three or more answered (so one endpoint reporting a bogus
 * future head moves nothing), the highest otherwise, like the ranking job's consensus (two agreeing
 * endpoints when three or more are healthy). Raw probes are bucketed by minute.
 */
export async function getEndpointLagSeries(
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
