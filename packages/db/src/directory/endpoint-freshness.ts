import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbNumber } from "../sql/row-values.js";

/** One minute of an endpoint's server probes, as the ranking job measured them (endpoint_freshness_minutes). */
export const EndpointFreshnessMinute = z.object({
  endpointId: z.string().uuid(),
  /** Start of the UTC minute (aligned like the 1-minute rollups). */
  bucket: z.date(),
  /** Successful server probes in the minute. */
  probes: z.number().int().min(0).max(32_767),
  /** Of those, past the chain's lag or head-age limits. */
  lagging: z.number().int().min(0).max(32_767),
  /** Of those, with a head that stopped. */
  stale: z.number().int().min(0).max(32_767),
});
export type EndpointFreshnessMinute = z.infer<typeof EndpointFreshnessMinute>;

/** Insert or replace minutes (one statement); an unchanged minute is not rewritten (most of each run's). */
export async function upsertEndpointFreshnessMinutes(
  sql: SqlClient,
  rows: readonly EndpointFreshnessMinute[],
): Promise<number> {
  const parsed = z.array(EndpointFreshnessMinute).parse(rows);
  if (parsed.length === 0) return 0;
  await sql.query(
    `INSERT INTO endpoint_freshness_minutes (endpoint_id, bucket, probes, lagging, stale)
     SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::smallint[], $4::smallint[], $5::smallint[])
     ON CONFLICT (endpoint_id, bucket) DO UPDATE
       SET probes = EXCLUDED.probes, lagging = EXCLUDED.lagging, stale = EXCLUDED.stale
       WHERE (endpoint_freshness_minutes.probes, endpoint_freshness_minutes.lagging, endpoint_freshness_minutes.stale)
         IS DISTINCT FROM (EXCLUDED.probes, EXCLUDED.lagging, EXCLUDED.stale)`,
    [
      parsed.map((r) => r.endpointId),
      parsed.map((r) => r.bucket),
      parsed.map((r) => r.probes),
      parsed.map((r) => r.lagging),
      parsed.map((r) => r.stale),
    ],
  );
  return parsed.length;
}

/** Drop minutes older than `before`. Returns the rows removed. */
export async function pruneEndpointFreshnessMinutes(sql: SqlClient, params: { before: Date }): Promise<number> {
  const { rows } = await sql.query(
    `WITH gone AS (DELETE FROM endpoint_freshness_minutes WHERE bucket < $1 RETURNING 1) SELECT count(*) AS n FROM gone`,
    [params.before],
  );
  return z.array(z.object({ n: dbNumber })).parse(rows)[0]?.n ?? 0;
}

/**
 * Lagging minutes of the endpoints $1 in [$2, $3): at least half of the minute's successful server
 * probes lagged (endpoint_freshness_minutes, written by the ranking job). A CTE named
 * lagging_minutes(endpoint_id, bucket), for queries over the same three parameters.
 */
export const LAGGING_MINUTES_CTE = `
  lagging_minutes AS (
    SELECT f.endpoint_id, f.bucket FROM endpoint_freshness_minutes f
    WHERE f.endpoint_id = ANY($1::uuid[]) AND f.bucket >= $2 AND f.bucket < $3
      AND f.probes > 0 AND f.lagging * 2 >= f.probes)`;
