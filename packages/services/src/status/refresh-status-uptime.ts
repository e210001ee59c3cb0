import { listStaleUptimeRefs } from "@rpcpulse/db/status";
import { type OrgShard, type SqlClient } from "@rpcpulse/db/sql";
import { fillMissingUptimeDays, computeUptimeWindow } from "./component-uptime.js";

export interface RefreshStatusUptimeInput {
  now: Date;
  /** Refs filled per step (one cache read, one rollup query per kind, one write per kind). */
  batchSize?: number;
  /** Refs filled per run at most; the rest wait for the next run (oldest ids first). */
  maxRefs?: number;
  /** Only the pages of this shard's organizations (a sharded sweep). */
  shard?: OrgShard | undefined;
}

export interface StatusUptimeRefresh {
  /** Distinct nodes and endpoints listed on public status pages (all checked against the cache). */
  refsChecked: number;
  /** Refs that lacked a finished day and were filled in this run. */
  refsFilled: number;
  /** Stale refs left for the next run (beyond maxRefs). */
  refsPending: number;
  /** Day rows written to status_uptime_days (zero rows for days without data included). */
  daysWritten: number;
}

/**
 * Precomputes the finished uptime days of every component of every public status page, so that no
 * visitor waits for them: after a page or component is added, and after each UTC midnight (one new
 * finished day per ref). Only refs missing a day are touched, in chunks of `batchSize`, at most
 * `maxRefs` per run; a second run over a complete cache writes nothing.
 */
export async function refreshStatusUptimeDays(
  deps: { sql: SqlClient },
  input: RefreshStatusUptimeInput,
): Promise<StatusUptimeRefresh> {
  const batchSize = input.batchSize ?? 25;
  const maxRefs = input.maxRefs ?? 500;
  const { first, today } = computeUptimeWindow(input.now);
  const found = await listStaleUptimeRefs(deps.sql, {
    from: first,
    today,
    limit: maxRefs,
    ...(input.shard ? { shard: input.shard } : {}),
  });
  let daysWritten = 0;
  for (let i = 0; i < found.refs.length; i += batchSize) {
    const chunk = found.refs.slice(i, i + batchSize);
    daysWritten += (await fillMissingUptimeDays(deps, { refs: chunk, now: input.now })).daysWritten;
  }
  return {
    refsChecked: found.listed,
    refsFilled: found.refs.length,
    refsPending: found.stale - found.refs.length,
    daysWritten,
  };
}
