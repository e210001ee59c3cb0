import type { SqlClient } from "./sql-client.js";

/** How far a streaming replica is behind its primary, as the two servers report it. */
export interface ReplicaLag {
  /** false: the server is not a replica (a promoted one, or a URL that names the primary). */
  inRecovery: boolean;
  /**
   * Replay delay: now() - pg_last_xact_replay_timestamp() while received WAL waits to be replayed,
   * 0 when everything received is replayed (an idle primary writes no transactions to compare with).
   */
  lagMs: number;
  /**
   * WAL the replica has not replayed yet: the primary's current LSN minus the replica's replay LSN;
   * null when the primary did not answer (the replica may still serve: judged by lagMs alone).
   */
  lagBytes: number | null;
}

/** Read the replica's side: recovery state, replay delay and its replay LSN. */
export async function readReplicaReplayState(
  replica: SqlClient,
): Promise<{ inRecovery: boolean; lagMs: number; replayLsn: string | null }> {
  const { rows } = await replica.query(
    `SELECT pg_is_in_recovery() AS in_recovery,
            CASE
              WHEN NOT pg_is_in_recovery() THEN 0
              WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
              ELSE GREATEST(0, EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()) * 1000)
            END AS lag_ms,
            pg_last_wal_replay_lsn()::text AS replay_lsn`,
  );
  const row = rows[0] as { in_recovery: boolean; lag_ms: string | number | null; replay_lsn: string | null };
  return { inRecovery: row.in_recovery, lagMs: Math.round(Number(row.lag_ms ?? 0)), replayLsn: row.replay_lsn };
}

/** Bytes between the primary's current WAL position and `replayLsn` (0 when the replica is ahead or equal). */
export async function readPrimaryWalDistance(primary: SqlClient, replayLsn: string): Promise<number> {
  const { rows } = await primary.query(
    "SELECT GREATEST(0, pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn))::bigint::text AS bytes",
    [replayLsn],
  );
  return Number((rows[0] as { bytes: string }).bytes);
}

/**
 * Both sides: the replica's replay state (throws when the replica does not answer), then the
 * primary's distance to it (null when the primary does not answer).
 */
export async function readReplicaLag(primary: SqlClient, replica: SqlClient): Promise<ReplicaLag> {
  const state = await readReplicaReplayState(replica);
  const lagBytes =
    state.inRecovery && state.replayLsn ? await readPrimaryWalDistance(primary, state.replayLsn).catch(() => null) : 0;
  return { inRecovery: state.inRecovery, lagMs: state.lagMs, lagBytes };
}
