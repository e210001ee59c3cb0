import { z } from "zod";
import { LAGGING_MINUTES_CTE } from "../directory/endpoint-freshness.js";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber } from "../sql/row-values.js";

/**
 * Per-day uptime of nodes and endpoints from the 1-minute rollups (same relations in both storage
 * modes), and the status_uptime_days cache that keeps 90 days × 100 components cheap.
 *
 * Node minute: up when the agent reported (samples > 0) and lag stayed under the lag threshold
 * (lagThresholdBlocks: max(3, ceil(30 s / block interval))) without syncing; degraded when it
 * reported but lagged or synced. A minute without samples is down (agent silent); the caller
 * counts expected minutes from the node's creation time.
 * Endpoint minute: probed minutes only; up when at least half of the probes across vantage
 * points succeeded (quorum: the endpoint served), degraded when some but fewer than half succeeded, or
 * when it served but lagged (LAGGING_MINUTES_CTE: at least half of its server probes of the minute were
 * past the chain's lag or head-age limits, as the ranking job measured them). As for nodes, a lagging
 * minute is served (counts in uptime) and degraded.
 */

export const UptimeDayQuery = z.object({
  refIds: z.array(z.string().uuid()).max(2_000),
  from: z.date(),
  to: z.date(),
});
export type UptimeDayQuery = z.infer<typeof UptimeDayQuery>;

/** The kind of thing a cached day is about: status_component_kind (a node and its consensus client share an id). */
export type UptimeKind = "node" | "endpoint" | "producer" | "consensus_client";

export interface UptimeDayRow {
  refId: string;
  /** UTC midnight of the day. */
  day: Date;
  /** Minutes with data (node: minutes with samples; endpoint: probed minutes). */
  measuredMinutes: number;
  upMinutes: number;
  degradedMinutes: number;
}

/** A (ref_id, day, measured, up, degraded) row of a day query, as an UptimeDayRow. */
export const UptimeDayDbRow = z
  .object({ ref_id: z.string(), day: dbDate, measured: dbNumber, up: dbNumber, degraded: dbNumber })
  .transform((r) => ({
    refId: r.ref_id,
    day: r.day,
    measuredMinutes: r.measured,
    upMinutes: r.up,
    degradedMinutes: r.degraded,
  }));

const NODE_DAYS_SQL = `
SELECT r.node_id::text AS ref_id,
       (date_trunc('day', r.bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS day,
       count(*) FILTER (WHERE r.samples > 0) AS measured,
       count(*) FILTER (WHERE r.samples > 0 AND coalesce(r.syncing_samples, 0) = 0
                          AND coalesce(r.lag_blocks_max, 0) < greatest(3, ceil(30000.0 / greatest(1, net.block_interval_ms)))) AS up,
       count(*) FILTER (WHERE r.samples > 0 AND (coalesce(r.syncing_samples, 0) > 0
                          OR coalesce(r.lag_blocks_max, 0) >= greatest(3, ceil(30000.0 / greatest(1, net.block_interval_ms))))) AS degraded
FROM node_samples_1m r
JOIN nodes n ON n.id = r.node_id
JOIN networks net ON net.id = n.network_id
WHERE r.node_id = ANY($1::uuid[]) AND r.bucket >= $2 AND r.bucket < $3
GROUP BY 1, 2`;

/** Per node and UTC day in [from, to): minutes reported, up and degraded (see file comment). */
export async function queryNodeUptimeDays(sql: SqlClient, params: UptimeDayQuery): Promise<UptimeDayRow[]> {
  const p = UptimeDayQuery.parse(params);
  if (p.refIds.length === 0) return [];
  const { rows } = await sql.query(NODE_DAYS_SQL, [p.refIds, p.from, p.to]);
  return rows.map((r) => UptimeDayDbRow.parse(r));
}

const ENDPOINT_DAYS_SQL = `
WITH ${LAGGING_MINUTES_CTE},
minutes AS (
  SELECT endpoint_id, bucket, sum(probes) AS probes, sum(coalesce(ok_count, 0)) AS ok
  FROM probe_results_1m
  WHERE endpoint_id = ANY($1::uuid[]) AND bucket >= $2 AND bucket < $3
  GROUP BY endpoint_id, bucket
)
SELECT m.endpoint_id::text AS ref_id,
       (date_trunc('day', m.bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS day,
       count(*) FILTER (WHERE m.probes > 0) AS measured,
       count(*) FILTER (WHERE m.probes > 0 AND m.ok * 2 >= m.probes) AS up,
       count(*) FILTER (WHERE (m.ok > 0 AND m.ok * 2 < m.probes)
                          OR (m.probes > 0 AND m.ok * 2 >= m.probes AND lm.bucket IS NOT NULL)) AS degraded
FROM minutes m
LEFT JOIN lagging_minutes lm ON lm.endpoint_id = m.endpoint_id AND lm.bucket = m.bucket
GROUP BY 1, 2`;

/** Per endpoint and UTC day in [from, to): probed minutes, quorum-up minutes, degraded minutes. */
export async function queryEndpointUptimeDays(sql: SqlClient, params: UptimeDayQuery): Promise<UptimeDayRow[]> {
  const p = UptimeDayQuery.parse(params);
  if (p.refIds.length === 0) return [];
  const { rows } = await sql.query(ENDPOINT_DAYS_SQL, [p.refIds, p.from, p.to]);
  return rows.map((r) => UptimeDayDbRow.parse(r));
}

const CachedRow = z
  .object({
    ref_id: z.string(),
    day: dbDate,
    measured_minutes: dbNumber,
    up_minutes: dbNumber,
    degraded_minutes: dbNumber,
  })
  .transform((r) => ({
    refId: r.ref_id,
    day: r.day,
    measuredMinutes: r.measured_minutes,
    upMinutes: r.up_minutes,
    degradedMinutes: r.degraded_minutes,
  }));

/** Cached days of these refs in [from, to), of one kind when given (else of any kind). */
export async function readCachedUptimeDays(
  sql: SqlClient,
  params: UptimeDayQuery & { kind?: UptimeKind },
): Promise<UptimeDayRow[]> {
  const p = UptimeDayQuery.parse(params);
  if (p.refIds.length === 0) return [];
  const { rows } = await sql.query(
    `SELECT ref_id::text AS ref_id, (day::timestamp AT TIME ZONE 'UTC') AS day, measured_minutes, up_minutes, degraded_minutes
     FROM status_uptime_days WHERE ref_id = ANY($1::uuid[]) AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date
       AND day < ($3::timestamptz AT TIME ZONE 'UTC')::date AND ($4::text IS NULL OR kind::text = $4)`,
    [p.refIds, p.from, p.to, params.kind ?? null],
  );
  return rows.map((r) => CachedRow.parse(r));
}

/** Upsert finished days into the cache (one statement). */
export async function writeCachedUptimeDays(
  sql: SqlClient,
  kind: UptimeKind,
  days: readonly UptimeDayRow[],
): Promise<void> {
  if (days.length === 0) return;
  await sql.query(
    `INSERT INTO status_uptime_days (kind, ref_id, day, measured_minutes, up_minutes, degraded_minutes, computed_at)
     SELECT $1::status_component_kind, u.ref_id, (u.day AT TIME ZONE 'UTC')::date, u.measured, u.up, u.degraded, now()
     FROM unnest($2::uuid[], $3::timestamptz[], $4::int[], $5::int[], $6::int[]) AS u(ref_id, day, measured, up, degraded)
     ON CONFLICT (ref_id, day, kind) DO UPDATE SET measured_minutes = EXCLUDED.measured_minutes,
       up_minutes = EXCLUDED.up_minutes, degraded_minutes = EXCLUDED.degraded_minutes, computed_at = now()`,
    [
      kind,
      days.map((d) => d.refId),
      days.map((d) => d.day),
      days.map((d) => d.measuredMinutes),
      days.map((d) => d.upMinutes),
      days.map((d) => d.degradedMinutes),
    ],
  );
}
