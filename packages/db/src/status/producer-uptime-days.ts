import type { SqlClient } from "../sql/sql-client.js";
import { UptimeDayQuery, type UptimeDayRow } from "./uptime-days.js";
import { z } from "zod";
import { dbDate, dbNumber } from "../sql/row-values.js";

/**
 * Per-day "uptime" of producers listed on status pages, from producer_samples (both storage modes).
 * A producer's day counts slots, not minutes: measured = slots seen (blocks it produced + blocks it
 * missed), up = blocks produced (a read whose last_confirmed_block grew since the read before),
 * degraded = blocks missed (total_missed grew). The cache (status_uptime_days) stores them in its
 * *_minutes columns. A day without a produced or missed block (not scheduled, or never read) has
 * measured = 0: no bar colour ("no data"). The service makes a day with any miss at least degraded.
 */

const Row = z
  .object({ ref_id: z.string(), day: dbDate, measured: dbNumber, up: dbNumber, degraded: dbNumber })
  .transform((r): UptimeDayRow => ({
    refId: r.ref_id,
    day: r.day,
    measuredMinutes: r.measured,
    upMinutes: r.up,
    degradedMinutes: r.degraded,
  }));

// The read before the day's first one comes from up to a day earlier, so a block produced or missed
// just after midnight is counted in the day it happened.
const PRODUCER_DAYS_SQL = `
WITH s AS (
  SELECT producer_id, time,
         greatest(0, total_missed - lag(total_missed) OVER w) AS missed,
         CASE WHEN last_confirmed_block > lag(last_confirmed_block) OVER w THEN 1 ELSE 0 END AS produced
  FROM producer_samples
  WHERE producer_id = ANY($1::uuid[]) AND time >= $2::timestamptz - interval '1 day' AND time < $3
  WINDOW w AS (PARTITION BY producer_id ORDER BY time)
)
SELECT producer_id::text AS ref_id,
       (date_trunc('day', time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS day,
       coalesce(sum(produced + missed), 0) AS measured,
       coalesce(sum(produced), 0) AS up,
       coalesce(sum(missed), 0) AS degraded
FROM s
WHERE time >= $2
GROUP BY 1, 2`;

/** Per producer and UTC day in [from, to): slots seen, produced, missed (see file comment). */
export async function queryProducerUptimeDays(sql: SqlClient, params: UptimeDayQuery): Promise<UptimeDayRow[]> {
  const p = UptimeDayQuery.parse(params);
  if (p.refIds.length === 0) return [];
  const { rows } = await sql.query(PRODUCER_DAYS_SQL, [p.refIds, p.from, p.to]);
  return rows.map((r) => Row.parse(r));
}
