import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { UptimeDayDbRow, UptimeDayQuery, type UptimeDayRow } from "./uptime-days.js";

/**
 * Per-day "uptime" of validators listed on status pages (producers of kind 'validator'), from
 * validator_samples and validator_offline_reports (both storage modes). A validator's day counts
 * minutes: each sample stands for the time until the next one, at most `gapSeconds` (a silent worker
 * is not counted as either up or down). measured = minutes read, up = minutes in the active set (out
 * of it the stash produces nothing: down), degraded = minutes in the set with era points below
 * `lowShare` of the set's median once `minProgress` of the era has passed. A day with an offline report
 * (imOnline.SomeOffline) has at least one degraded minute; the service raises such a day to degraded.
 * Producer ids that are not validators have no samples here (witnesses: producer-uptime-days.ts).
 */

export const ValidatorUptimeDayQuery = UptimeDayQuery.extend({
  lowShare: z.number().min(0).max(1),
  minProgress: z.number().min(0).max(1),
  gapSeconds: z.number().int().min(60).max(86_400),
});
export type ValidatorUptimeDayQuery = z.infer<typeof ValidatorUptimeDayQuery>;

// Samples up to one gap past the window give the last sample of the window its length.
const VALIDATOR_DAYS_SQL = `
WITH s AS (
  SELECT producer_id, time, in_active_set,
         (in_active_set AND era_progress >= $5 AND median_points > 0 AND era_points < median_points * $4) AS low,
         extract(epoch FROM least(coalesce(lead(time) OVER w - time, make_interval(secs => $6)),
                                  make_interval(secs => $6))) / 60.0 AS minutes
  FROM validator_samples
  WHERE producer_id = ANY($1::uuid[]) AND time >= $2 AND time < $3::timestamptz + make_interval(secs => $6)
  WINDOW w AS (PARTITION BY producer_id ORDER BY time)
), d AS (
  SELECT producer_id, (date_trunc('day', time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS day,
         sum(minutes) AS measured,
         coalesce(sum(minutes) FILTER (WHERE in_active_set), 0) AS up,
         coalesce(sum(minutes) FILTER (WHERE low), 0) AS low
  FROM s WHERE time < $3
  GROUP BY 1, 2
), r AS (
  SELECT producer_id, (date_trunc('day', detected_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS day, count(*) AS reports
  FROM validator_offline_reports
  WHERE producer_id = ANY($1::uuid[]) AND detected_at >= $2 AND detected_at < $3
  GROUP BY 1, 2
)
SELECT d.producer_id::text AS ref_id, d.day,
       greatest(1, round(d.measured)) AS measured,
       least(greatest(1, round(d.measured)), round(d.up)) AS up,
       least(greatest(1, round(d.measured)),
             greatest(round(d.low), CASE WHEN coalesce(r.reports, 0) > 0 THEN 1 ELSE 0 END)) AS degraded
FROM d LEFT JOIN r ON r.producer_id = d.producer_id AND r.day = d.day`;

/** Per validator and UTC day in [from, to): minutes read, in the active set, degraded (see file comment). */
export async function queryValidatorUptimeDays(
  sql: SqlClient,
  params: ValidatorUptimeDayQuery,
): Promise<UptimeDayRow[]> {
  const p = ValidatorUptimeDayQuery.parse(params);
  if (p.refIds.length === 0) return [];
  const { rows } = await sql.query(VALIDATOR_DAYS_SQL, [
    p.refIds,
    p.from,
    p.to,
    p.lowShare,
    p.minProgress,
    p.gapSeconds,
  ]);
  return rows.map((r) => UptimeDayDbRow.parse(r));
}
