import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber, int8 } from "../sql/row-values.js";

/**
 * Readings of producers (the worker's producers task): producer_latest upserted, a miss row when
 * total_missed grew, one producer_samples row for the history (hypertable or plain table).
 */

export const ProducerReading = z.object({
  producerId: z.string().uuid(),
  observedAt: z.date(),
  source: z.string().min(1).max(2_048),
  headBlock: int8.nonnegative(),
  totalMissed: int8.nonnegative(),
  lastConfirmedBlock: int8.nonnegative(),
  signingKey: z.string().min(1).max(128),
  disabled: z.boolean(),
  runningVersion: z.string().max(32),
  hardforkVote: z.string().max(32),
  majorityVersion: z.string().max(32).nullable(),
  feedBase: z.string().max(64).nullable(),
  feedQuote: z.string().max(64).nullable(),
  feedUpdatedAt: z.date().nullable(),
  votes: z.string().regex(/^\d{1,40}$/),
  rank: z.number().int().positive().nullable(),
  inSchedule: z.boolean(),
  /**
   * When total_missed grew: the exact missed blocks the caller read from the chain (producer_missed
   * virtual operations); those inside the miss's range are stored with it. null/absent: unknown.
   */
  missedBlocks: z.array(int8.positive()).max(1_000).nullable().optional(),
});
export type ProducerReading = z.infer<typeof ProducerReading>;

export interface RecordedReading {
  /** A new miss row (total_missed grew since the previous reading). */
  miss: { fromBlock: number; toBlock: number; count: number; missedBlocks: number[] | null } | null;
  keyChanged: boolean;
}

const PrevRow = z
  .object({ total_missed: dbNumber, head_block: dbNumber, signing_key: z.string() })
  .transform((p) => ({ totalMissed: p.total_missed, headBlock: p.head_block, signingKey: p.signing_key }));

/** Store one reading; compares with the previous one to record a miss and a key change. */
export async function recordProducerReading(sql: SqlClient, input: ProducerReading): Promise<RecordedReading> {
  const r = ProducerReading.parse(input);
  const prevRows = await sql.query(
    `SELECT total_missed, head_block, signing_key FROM producer_latest WHERE producer_id = $1`,
    [r.producerId],
  );
  const prev = prevRows.rows[0] ? PrevRow.parse(prevRows.rows[0]) : null;
  const keyChanged = prev !== null && prev.signingKey !== r.signingKey;
  await sql.query(
    `INSERT INTO producer_latest (producer_id, observed_at, source, head_block, total_missed, last_confirmed_block,
       signing_key, disabled, key_changed_at, previous_signing_key, running_version, hardfork_vote, majority_version,
       feed_base, feed_quote, feed_updated_at, votes, rank, in_schedule, error, error_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL, $9, $10, $11, $12, $13, $14, $15, $16, $17, NULL, NULL)
     ON CONFLICT (producer_id) DO UPDATE SET
       observed_at = EXCLUDED.observed_at, source = EXCLUDED.source, head_block = EXCLUDED.head_block,
       total_missed = EXCLUDED.total_missed, last_confirmed_block = EXCLUDED.last_confirmed_block,
       key_changed_at = CASE WHEN producer_latest.signing_key <> EXCLUDED.signing_key
                             THEN EXCLUDED.observed_at ELSE producer_latest.key_changed_at END,
       previous_signing_key = CASE WHEN producer_latest.signing_key <> EXCLUDED.signing_key
                             THEN producer_latest.signing_key ELSE producer_latest.previous_signing_key END,
       signing_key = EXCLUDED.signing_key, disabled = EXCLUDED.disabled,
       running_version = EXCLUDED.running_version, hardfork_vote = EXCLUDED.hardfork_vote,
       majority_version = EXCLUDED.majority_version, feed_base = EXCLUDED.feed_base,
       feed_quote = EXCLUDED.feed_quote, feed_updated_at = EXCLUDED.feed_updated_at, votes = EXCLUDED.votes,
       rank = EXCLUDED.rank, in_schedule = EXCLUDED.in_schedule, error = NULL, error_at = NULL
     WHERE producer_latest.observed_at <= EXCLUDED.observed_at`,
    [
      r.producerId,
      r.observedAt,
      r.source,
      r.headBlock,
      r.totalMissed,
      r.lastConfirmedBlock,
      r.signingKey,
      r.disabled,
      r.runningVersion,
      r.hardforkVote,
      r.majorityVersion,
      r.feedBase,
      r.feedQuote,
      r.feedUpdatedAt,
      r.votes,
      r.rank,
      r.inSchedule,
    ],
  );
  let miss: RecordedReading["miss"] = null;
  if (prev !== null && r.totalMissed > prev.totalMissed) {
    const fromBlock = Math.min(prev.headBlock + 1, r.headBlock);
    const inRange = r.missedBlocks?.filter((b) => b >= fromBlock && b <= r.headBlock) ?? null;
    miss = {
      fromBlock,
      toBlock: r.headBlock,
      count: r.totalMissed - prev.totalMissed,
      missedBlocks: inRange === null ? null : [...new Set(inRange)].sort((a, b) => a - b),
    };
    // missed_blocks (0024) is written with the row, so an alert never sees the range first.
    await sql.query(
      `INSERT INTO producer_misses (producer_id, detected_at, from_block, to_block, count, total_missed, missed_blocks)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
      [r.producerId, r.observedAt, miss.fromBlock, miss.toBlock, miss.count, r.totalMissed, miss.missedBlocks],
    );
  }
  const feedAgeS =
    r.feedUpdatedAt === null
      ? null
      : Math.min(2_147_483_647, Math.max(0, Math.round((r.observedAt.getTime() - r.feedUpdatedAt.getTime()) / 1000)));
  await sql.query(
    `INSERT INTO producer_samples (time, producer_id, total_missed, last_confirmed_block, head_block, feed_age_s, rank)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [r.observedAt, r.producerId, r.totalMissed, r.lastConfirmedBlock, r.headBlock, feedAgeS, r.rank],
  );
  return { miss, keyChanged };
}

/** Every source failed: keep the last good reading, note the error. */
export async function recordProducerError(
  sql: SqlClient,
  params: { producerId: string; at: Date; message: string },
): Promise<void> {
  await sql.query(`UPDATE producer_latest SET error = $3, error_at = $2 WHERE producer_id = $1`, [
    params.producerId,
    params.at,
    params.message.slice(0, 500),
  ]);
}

export interface ProducerMissRow {
  producerId: string;
  detectedAt: Date;
  fromBlock: number;
  toBlock: number;
  count: number;
  totalMissed: number;
  /** The exact missed block(s) from the producer_missed virtual operation; null when unknown (see 0024). */
  missedBlocks: number[] | null;
}

const MissDbRow = z
  .object({
    producer_id: z.string(),
    detected_at: dbDate,
    from_block: dbNumber,
    to_block: dbNumber,
    count: dbNumber,
    total_missed: dbNumber,
    missed_blocks: z.array(dbNumber).nullable(),
  })
  .transform((r): ProducerMissRow => ({
    producerId: r.producer_id,
    detectedAt: r.detected_at,
    fromBlock: r.from_block,
    toBlock: r.to_block,
    count: r.count,
    totalMissed: r.total_missed,
    missedBlocks: r.missed_blocks,
  }));

/** Misses since `since`, newest first, at most `limit` per producer. */
export async function listProducerMisses(
  sql: SqlClient,
  params: { producerIds: readonly string[]; since: Date; limit?: number },
): Promise<ProducerMissRow[]> {
  if (params.producerIds.length === 0) return [];
  const { rows } = await sql.query(
    `SELECT producer_id::text, detected_at, from_block, to_block, count, total_missed, missed_blocks FROM (
       SELECT m.*, row_number() OVER (PARTITION BY producer_id ORDER BY detected_at DESC) AS rn
       FROM producer_misses m
       WHERE producer_id = ANY($1::uuid[]) AND detected_at >= $2) x
     WHERE rn <= $3 ORDER BY detected_at DESC`,
    [[...params.producerIds], params.since, params.limit ?? 20],
  );
  return rows.map((r) => MissDbRow.parse(r));
}

export interface ProducerHistoryPoint {
  bucket: Date;
  missed: number;
  feedAgeS: number | null;
}

const HistoryRow = z
  .object({ bucket: dbDate, missed: dbNumber, feed_age_s: dbNumber.nullable() })
  .transform((r): ProducerHistoryPoint => ({ bucket: r.bucket, missed: r.missed, feedAgeS: r.feed_age_s }));

/**
 * Misses per bucket and the largest feed age in it, over producer_samples (date_bin works in both
 * storage modes; the history is small enough not to need rollups).
 */
export async function readProducerHistory(
  sql: SqlClient,
  params: { producerId: string; from: Date; to: Date; bucketSeconds: number },
): Promise<ProducerHistoryPoint[]> {
  const bucket = z.number().int().min(60).max(86_400).parse(params.bucketSeconds);
  const { rows } = await sql.query(
    `SELECT b AS bucket, coalesce(sum(d), 0) AS missed, max(feed_age_s) AS feed_age_s
     FROM (
       SELECT date_bin(make_interval(secs => $4), time, TIMESTAMPTZ '2000-01-01') AS b, feed_age_s,
              greatest(0, total_missed - coalesce(lag(total_missed) OVER (ORDER BY time), total_missed)) AS d
       FROM producer_samples WHERE producer_id = $1 AND time >= $2 AND time < $3) s
     GROUP BY b ORDER BY b`,
    [params.producerId, params.from, params.to, bucket],
  );
  return rows.map((r) => HistoryRow.parse(r));
}
