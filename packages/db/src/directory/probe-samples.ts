import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber, dbNumberOrNull } from "../sql/row-values.js";
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

/** One (endpoint, vantage point)'s probes as listProbeSamples reads them: the vantage point, then one tuple per probe. */
const ProbeGroupRow = z.object({
  endpoint_id: z.string(),
  region: z.string(),
  vantage_point_id: z.string(),
  vantage_kind: z.enum(["server", "agent"]),
  vantage_organization_id: z.string().nullable(),
  // [time ms, ok, http status, error class, rate limited, ttfb ms, head block, head time ms]
  probes: z.array(
    z.tuple([
      z.number(),
      z.boolean(),
      z.number().nullable(),
      z.string().nullable(),
      z.boolean(),
      z.number().nullable(),
      z.number().nullable(),
      z.number().nullable(),
    ]),
  ),
});

/**
 * ProbeSampleRows of one group row without a schema pass per probe (the ranking reads hundreds of
 * thousands): the columns' SQL types fix the shapes; a group with a probe that does not fit goes
 * through the schema, which throws.
 */
function toProbeSampleRows(raw: unknown, out: ProbeSampleRow[]): void {
  const r = raw as Record<string, unknown>;
  const kind = r.vantage_kind;
  const probes = r.probes as unknown[][];
  const fits =
    typeof r.endpoint_id === "string" &&
    typeof r.vantage_point_id === "string" &&
    (kind === "server" || kind === "agent") &&
    Array.isArray(probes) &&
    probes.every((p) => Array.isArray(p) && p.length === 8 && typeof p[0] === "number" && typeof p[1] === "boolean");
  if (!fits) ProbeGroupRow.parse(raw);
  const endpointId = r.endpoint_id as string;
  const region = String(r.region);
  const vantagePointId = r.vantage_point_id as string;
  const vantageOrganizationId = (r.vantage_organization_id as string | null) ?? null;
  for (const p of probes) {
    const headTimeMs = numOrNull(p[7]);
    out.push({
      time: new Date(p[0] as number),
      endpointId,
      region,
      vantagePointId,
      vantageKind: kind as "server" | "agent",
      vantageOrganizationId,
      ok: p[1] as boolean,
      httpStatus: numOrNull(p[2]),
      errorClass: (p[3] as string | null) ?? null,
      rateLimited: p[4] === true,
      ttfbMs: numOrNull(p[5]),
      headBlock: numOrNull(p[6]),
      headTime: headTimeMs === null ? null : new Date(headTimeMs),
    });
  }
}

/**
 * Organization an agent vantage point probes for: its node's, else the one its name carries
 * (agent:<org>:<node>:<region>, written by the ingest from the token); null for server vantage points.
 */
export const VANTAGE_ORGANIZATION = `CASE WHEN v.kind = 'agent' THEN coalesce(
       (SELECT nd.organization_id FROM nodes nd WHERE nd.id = v.node_id),
       CASE WHEN v.name ~ '^agent:[^:]+:[^:]+:[^:]+$' THEN split_part(v.name, ':', 2) END) END`;

/**
 * Raw probes of these endpoints in [since, until), oldest first, with the vantage point's region and kind.
 * Read as one JSON array of probe tuples per (endpoint, vantage point) in time order (a few thousand
 * rows that JSON.parse reads natively, instead of hundreds of thousands of rows of 13 fields parsed one
 * by one), then merged by time.
 */
export async function listProbeSamples(
  sql: SqlClient,
  params: { endpointIds: readonly string[]; since: Date; until: Date },
): Promise<ProbeSampleRow[]> {
  if (params.endpointIds.length === 0) return [];
  const { rows } = await sql.query(
    `WITH vp AS (SELECT v.id, v.region, v.kind::text AS kind, ${VANTAGE_ORGANIZATION} AS organization_id
                 FROM vantage_points v),
     grouped AS (
       SELECT p.endpoint_id, p.vantage_point_id,
         json_agg(json_build_array(floor(extract(epoch FROM p.time) * 1000)::float8, p.ok, p.http_status,
           p.error_class, p.rate_limited, p.ttfb_ms, p.head_block,
           floor(extract(epoch FROM p.head_time) * 1000)::float8) ORDER BY p.time) AS probes
       FROM probe_results p
       WHERE p.endpoint_id = ANY($1::uuid[]) AND p.time >= $2 AND p.time < $3
       GROUP BY p.endpoint_id, p.vantage_point_id)
     SELECT g.endpoint_id, v.region, g.vantage_point_id, v.kind AS vantage_kind,
       v.organization_id AS vantage_organization_id, g.probes
     FROM grouped g JOIN vp v ON v.id = g.vantage_point_id`,
    [[...params.endpointIds], params.since, params.until],
  );
  const out: ProbeSampleRow[] = [];
  for (const raw of rows) toProbeSampleRows(raw, out);
  // Each group is in time order; a stable sort by time merges them (positions sorted on the times read
  // once: the comparator ran millions of times, two Date.getTime calls each).
  const times = new Float64Array(out.length);
  for (let i = 0; i < out.length; i++) times[i] = (out[i] as ProbeSampleRow).time.getTime();
  const order = Array.from({ length: out.length }, (_, i) => i);
  order.sort((a, b) => (times[a] as number) - (times[b] as number) || a - b);
  return order.map((i) => out[i] as ProbeSampleRow);
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
