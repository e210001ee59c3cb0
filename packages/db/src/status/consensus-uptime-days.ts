import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { UptimeDayDbRow, UptimeDayQuery, type UptimeDayRow } from "./uptime-days.js";

/**
 * Per-day "uptime" of Ethereum consensus clients listed on status pages (kind consensus_client, ref =
 * the node the agent reads it beside), from beacon_samples (both storage modes). Minutes, as a
 * validator's day: each reading stands for the time until the next one, at most `gapSeconds` (a silent
 * agent is counted neither up nor down). measured = minutes read; up = minutes its Beacon API answered,
 * it was fewer than `majorSlots` behind the wall-clock slot (its sync distance when the wall slot is
 * unknown) and its execution client was not offline; degraded = up minutes `degradedSlots` or more
 * behind, or optimistic (the thresholds of the status component and of consensus_client_behind).
 */

export const ConsensusUptimeDayQuery = UptimeDayQuery.extend({
  majorSlots: z.number().int().min(1),
  degradedSlots: z.number().int().min(1),
  gapSeconds: z.number().int().min(10).max(86_400),
});
export type ConsensusUptimeDayQuery = z.infer<typeof ConsensusUptimeDayQuery>;

// Readings up to one gap past the window give the window's last reading its length.
const CONSENSUS_DAYS_SQL = `
WITH s AS (
  SELECT node_id, time,
         (ok AND coalesce(slots_behind, sync_distance, 0) < $4 AND NOT coalesce(el_offline, false)) AS up,
         (coalesce(slots_behind, sync_distance, 0) >= $5 OR coalesce(optimistic, false)) AS slow,
         extract(epoch FROM least(coalesce(lead(time) OVER w - time, make_interval(secs => $6)),
                                  make_interval(secs => $6))) / 60.0 AS minutes
  FROM beacon_samples
  WHERE node_id = ANY($1::uuid[]) AND time >= $2 AND time < $3::timestamptz + make_interval(secs => $6)
  WINDOW w AS (PARTITION BY node_id ORDER BY time)
)
SELECT node_id::text AS ref_id, (date_trunc('day', time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS day,
       greatest(1, round(sum(minutes))) AS measured,
       least(greatest(1, round(sum(minutes))), round(coalesce(sum(minutes) FILTER (WHERE up), 0))) AS up,
       least(greatest(1, round(sum(minutes))), round(coalesce(sum(minutes) FILTER (WHERE up AND slow), 0))) AS degraded
FROM s WHERE time < $3
GROUP BY 1, 2`;

/** Per node's consensus client and UTC day in [from, to): minutes read, up, degraded (see file comment). */
export async function queryConsensusUptimeDays(
  sql: SqlClient,
  params: ConsensusUptimeDayQuery,
): Promise<UptimeDayRow[]> {
  const p = ConsensusUptimeDayQuery.parse(params);
  if (p.refIds.length === 0) return [];
  const { rows } = await sql.query(CONSENSUS_DAYS_SQL, [
    p.refIds,
    p.from,
    p.to,
    p.majorSlots,
    p.degradedSlots,
    p.gapSeconds,
  ]);
  return rows.map((r) => UptimeDayDbRow.parse(r));
}
