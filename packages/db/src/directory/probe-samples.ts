import { z } from "zod";
import type { SqlClient } from "../sql-client.js";
import { dbDate, dbNumber, dbNumberOrNull } from "../timeseries/row-values.js";
import { LAGGING_MINUTES_CTE } from "./endpoint-freshness.js";

/** One stored probe with its vantage point (region, kind, organization): the input of scoring and lag. */
export const ProbeSampleRow = z
  .object({
    time: dbDate,
    endpoint_id: z.string(),
    region: z.string(),
    vantage_point_id: z.string(),
    vantage_kind: z.enum(["server", "agent"]),
    vantage_organization_id: z.string().nullable(),
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
    vantagePointId: r.vantage_point_id,
    vantageKind: r.vantage_kind,
    /** Organization of an agent vantage point (its node's; null for server vantage points). */
    vantageOrganizationId: r.vantage_organization_id,
    ok: r.ok,
    httpStatus: r.http_status,
    errorClass: r.error_class,
    rateLimited: r.rate_limited,
    ttfbMs: r.ttfb_ms,
    headBlock: r.head_block,
    headTime: r.head_time,
  }));
export type ProbeSampleRow = z.output<typeof ProbeSampleRow>;

const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * ProbeSampleRow from a row of the query below without a schema pass per row (the ranking reads
 * hundreds of thousands): the columns' SQL types fix the shapes; a row that does not fit still goes
 * through the schema, which throws.
 */
function toProbeSampleRow(raw: unknown): ProbeSampleRow {
  const r = raw as Record<string, unknown>;
  if (!(r.time instanceof Date) || typeof r.ok !== "boolean" || typeof r.endpoint_id !== "string") {
    return ProbeSampleRow.parse(raw);
  }
  const kind = r.vantage_kind;
  if (kind !== "server" && kind !== "agent") return ProbeSampleRow.parse(raw);
  return {
    time: r.time,
    endpointId: r.endpoint_id,
    region: String(r.region),
    vantagePointId: String(r.vantage_point_id),
    vantageKind: kind,
    vantageOrganizationId: (r.vantage_organization_id as string | null) ?? null,
    ok: r.ok,
    httpStatus: numOrNull(r.http_status),
    errorClass: (r.error_class as string | null) ?? null,
    rateLimited: r.rate_limited === true,
    ttfbMs: numOrNull(r.ttfb_ms),
    headBlock: numOrNull(r.head_block),
    headTime: r.head_time instanceof Date ? r.head_time : r.head_time == null ? null : new Date(String(r.head_time)),
  };
}

/**
 * Organization an agent vantage point probes for: its node's, else the one its name carries
 * (agent:<org>:<node>:<region>, written by the ingest from the token); null for server vantage points.
 */
export const VANTAGE_ORGANIZATION = `CASE WHEN v.kind = 'agent' THEN coalesce(
       (SELECT nd.organization_id FROM nodes nd WHERE nd.id = v.node_id),
       CASE WHEN v.name ~ '^agent:[^:]+:[^:]+:[^:]+$' THEN split_part(v.name, ':', 2) END) END`;

/** Raw probes of these endpoints in [since, until), oldest first, with the vantage point's region and kind. */
export async function listProbeSamples(
  sql: SqlClient,
  params: { endpointIds: readonly string[]; since: Date; until: Date },
): Promise<ProbeSampleRow[]> {
  if (params.endpointIds.length === 0) return [];
  const { rows } = await sql.query(
    `WITH vp AS (SELECT v.id, v.region, v.kind::text AS kind, ${VANTAGE_ORGANIZATION} AS organization_id
                 FROM vantage_points v)
     SELECT p.time, p.endpoint_id, v.region, p.vantage_point_id, v.kind AS vantage_kind,
       v.organization_id AS vantage_organization_id, p.ok, p.http_status, p.error_class, p.rate_limited, p.ttfb_ms,
       p.head_block, p.head_time
     FROM probe_results p JOIN vp v ON v.id = p.vantage_point_id
     WHERE p.endpoint_id = ANY($1::uuid[]) AND p.time >= $2 AND p.time < $3
     ORDER BY p.time`,
    [[...params.endpointIds], params.since, params.until],
  );
  return rows.map(toProbeSampleRow);
}

/**
 * Server probes per endpoint over [from, to): how many, how many succeeded, and how many of those
 * succeeded in a minute the endpoint lagged (LAGGING_MINUTES_CTE), from the 1-minute rollup (cheap over
 * 30 days), plus the raw probes of the last minutes the rollup has not materialised yet (counted as
 * not lagging here: the ranking measures those probe by probe).
 */
export async function getProbeAvailability(
  sql: SqlClient,
  params: { endpointIds: readonly string[]; from: Date; to: Date },
): Promise<Map<string, { probes: number; ok: number; okLagging: number }>> {
  if (params.endpointIds.length === 0) return new Map();
  const { rows } = await sql.query(
    `WITH ${LAGGING_MINUTES_CTE},
     rolled AS (
       SELECT r.endpoint_id, sum(r.probes)::bigint AS probes, sum(r.ok_count)::bigint AS ok,
         coalesce(sum(r.ok_count) FILTER (WHERE lm.bucket IS NOT NULL), 0)::bigint AS ok_lagging,
         max(r.bucket) AS last_bucket
       FROM probe_results_1m r JOIN vantage_points v ON v.id = r.vantage_point_id AND v.kind = 'server'
       LEFT JOIN lagging_minutes lm ON lm.endpoint_id = r.endpoint_id AND lm.bucket = r.bucket
       WHERE r.endpoint_id = ANY($1::uuid[]) AND r.bucket >= $2 AND r.bucket < $3
       GROUP BY r.endpoint_id),
     fresh AS (
       SELECT p.endpoint_id, count(*)::bigint AS probes, count(*) FILTER (WHERE p.ok)::bigint AS ok
       FROM probe_results p JOIN vantage_points v ON v.id = p.vantage_point_id AND v.kind = 'server'
       LEFT JOIN rolled r ON r.endpoint_id = p.endpoint_id
       WHERE p.endpoint_id = ANY($1::uuid[]) AND p.time < $3
         AND p.time >= greatest($2, coalesce(r.last_bucket + interval '1 minute', $2))
       GROUP BY p.endpoint_id)
     SELECT coalesce(r.endpoint_id, f.endpoint_id) AS endpoint_id,
       (coalesce(r.probes, 0) + coalesce(f.probes, 0))::integer AS probes,
       (coalesce(r.ok, 0) + coalesce(f.ok, 0))::integer AS ok,
       coalesce(r.ok_lagging, 0)::integer AS ok_lagging
     FROM rolled r FULL JOIN fresh f ON f.endpoint_id = r.endpoint_id`,
    [[...params.endpointIds], params.from, params.to],
  );
  const parsed = z
    .array(z.object({ endpoint_id: z.string(), probes: dbNumber, ok: dbNumber, ok_lagging: dbNumber }))
    .parse(rows);
  return new Map(parsed.map((r) => [r.endpoint_id, { probes: r.probes, ok: r.ok, okLagging: r.ok_lagging }]));
}

/** What ranking needs of each endpoint besides its probes: its network id and its claimant organization. */
export async function listRankingEndpointFacts(
  sql: SqlClient,
  endpointIds: readonly string[],
): Promise<Map<string, { networkId: string; claimantOrganizationId: string | null }>> {
  if (endpointIds.length === 0) return new Map();
  const { rows } = await sql.query(
    `SELECT id, network_id, claimed_by_organization_id FROM public_endpoints WHERE id = ANY($1::uuid[])`,
    [[...endpointIds]],
  );
  const parsed = z
    .array(z.object({ id: z.string(), network_id: z.string(), claimed_by_organization_id: z.string().nullable() }))
    .parse(rows);
  return new Map(
    parsed.map((r) => [r.id, { networkId: r.network_id, claimantOrganizationId: r.claimed_by_organization_id }]),
  );
}
