import { z } from "zod";
import type { SqlClient } from "../sql-client.js";
import { dbDate, dbNumber, dbNumberOrNull } from "../timeseries/row-values.js";

/** One stored probe with its vantage point's region: the input of scoring and network-head consensus. */
export const ProbeSampleRow = z
  .object({
    time: dbDate,
    endpoint_id: z.string(),
    region: z.string(),
    ok: z.boolean(),
    http_status: dbNumberOrNull,
    error_class: z.string().nullable(),
    rate_limited: z.boolean(),
    ttfb_ms: dbNumberOrNull,
    head_block: dbNumberOrNull,
    head_time: dbDate.nullable(),
  })
  .transform((r) => ({
    time: r.time,
    endpointId: r.endpoint_id,
    region: r.region,
    ok: r.ok,
    httpStatus: r.http_status,
    errorClass: r.error_class,
    rateLimited: r.rate_limited,
    ttfbMs: r.ttfb_ms,
    headBlock: r.head_block,
    headTime: r.head_time,
  }));
export type ProbeSampleRow = z.output<typeof ProbeSampleRow>;

/** Raw probes of these endpoints in [since, until), oldest first, with the vantage point's region. */
export async function listProbeSamples(
  sql: SqlClient,
  params: { endpointIds: readonly string[]; since: Date; until: Date },
): Promise<ProbeSampleRow[]> {
  if (params.endpointIds.length === 0) return [];
  const { rows } = await sql.query(
    `SELECT p.time, p.endpoint_id, v.region, p.ok, p.http_status, p.error_class, p.rate_limited, p.ttfb_ms,
       p.head_block, p.head_time
     FROM probe_results p JOIN vantage_points v ON v.id = p.vantage_point_id
     WHERE p.endpoint_id = ANY($1::uuid[]) AND p.time >= $2 AND p.time < $3
     ORDER BY p.time`,
    [[...params.endpointIds], params.since, params.until],
  );
  return rows.map((r) => ProbeSampleRow.parse(r));
}

/**
 * Share of successful probes per endpoint over [from, to), from the 1-minute rollup (cheap over 30
 * days), plus the raw probes of the last minutes the rollup has not materialised yet.
 */
export async function getProbeAvailability(
  sql: SqlClient,
  params: { endpointIds: readonly string[]; from: Date; to: Date },
): Promise<Map<string, { probes: number; ok: number }>> {
  if (params.endpointIds.length === 0) return new Map();
  const { rows } = await sql.query(
    `WITH rolled AS (
       SELECT endpoint_id, sum(probes)::bigint AS probes, sum(ok_count)::bigint AS ok, max(bucket) AS last_bucket
       FROM probe_results_1m WHERE endpoint_id = ANY($1::uuid[]) AND bucket >= $2 AND bucket < $3
       GROUP BY endpoint_id),
     fresh AS (
       SELECT p.endpoint_id, count(*)::bigint AS probes, count(*) FILTER (WHERE p.ok)::bigint AS ok
       FROM probe_results p LEFT JOIN rolled r ON r.endpoint_id = p.endpoint_id
       WHERE p.endpoint_id = ANY($1::uuid[]) AND p.time < $3
         AND p.time >= greatest($2, coalesce(r.last_bucket + interval '1 minute', $2))
       GROUP BY p.endpoint_id)
     SELECT coalesce(r.endpoint_id, f.endpoint_id) AS endpoint_id,
       (coalesce(r.probes, 0) + coalesce(f.probes, 0))::integer AS probes,
       (coalesce(r.ok, 0) + coalesce(f.ok, 0))::integer AS ok
     FROM rolled r FULL JOIN fresh f ON f.endpoint_id = r.endpoint_id`,
    [[...params.endpointIds], params.from, params.to],
  );
  const parsed = z.array(z.object({ endpoint_id: z.string(), probes: dbNumber, ok: dbNumber })).parse(rows);
  return new Map(parsed.map((r) => [r.endpoint_id, { probes: r.probes, ok: r.ok }]));
}
