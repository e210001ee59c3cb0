import { listActiveProbeRegions } from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import { enqueueRegionProbeRound, type ProbePayload, type QueueTarget } from "@rpcpulse/queue";

export interface FanOutProbeRoundReport {
  /** Active regions, each given the round. */
  regions: string[];
}

/**
 * The recurring probe round, once per region: every region with a live prober (a worker heartbeat
 * newer than `regionTtlMs` listing its `probe.<region>` queue) gets the round on its own queue, so
 * each region's workers probe every listed endpoint (or `endpointIds`) on schedule. `roundId` (the
 * fan-out job's id) makes the regional job ids, so a retried fan-out adds nothing twice.
 */
export async function fanOutProbeRound(
  deps: { sql: SqlClient; target: QueueTarget },
  input: {
    roundId: string;
    regionTtlMs: number;
    payload: ProbePayload;
    /** The region of the worker running the fan-out (alive, consuming its queue), even before its first heartbeat. */
    selfRegion?: string;
    now?: Date;
  },
): Promise<FanOutProbeRoundReport> {
  const now = (input.now ?? new Date()).getTime();
  const listed = await listActiveProbeRegions(deps.sql, { since: new Date(now - input.regionTtlMs) });
  const regions = [...new Set([...listed, ...(input.selfRegion ? [input.selfRegion] : [])])].sort();
  for (const region of regions) {
    await enqueueRegionProbeRound(deps.target, { region, roundId: input.roundId, payload: input.payload });
  }
  return { regions };
}
