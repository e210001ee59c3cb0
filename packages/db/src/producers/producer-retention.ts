import { z } from "zod";
import type { SqlClient } from "../sql-client.js";
import { int8 } from "../timeseries/row-values.js";

/**
 * The exact block numbers of a miss (producer_misses.missed_blocks, migration 0024), read from the
 * chain's producer_missed virtual operations in the miss row's block range after the row is written.
 * Only blocks inside the row's range are kept; a row whose blocks are known keeps them.
 */
export const MissedBlocksInput = z.object({
  producerId: z.string().uuid(),
  /** The miss row's key (producer_misses primary key: producer_id, total_missed). */
  totalMissed: int8.nonnegative(),
  blocks: z.array(int8.positive()).max(1_000),
});

/** Store the exact blocks of one miss row; false when the row is gone or already has them. */
export async function recordMissedBlocks(sql: SqlClient, input: z.input<typeof MissedBlocksInput>): Promise<boolean> {
  const p = MissedBlocksInput.parse(input);
  const { rows } = await sql.query(
    `UPDATE producer_misses m
     SET missed_blocks = (SELECT coalesce(array_agg(DISTINCT b ORDER BY b), '{}')
                          FROM unnest($3::bigint[]) AS b WHERE b BETWEEN m.from_block AND m.to_block)
     WHERE m.producer_id = $1 AND m.total_missed = $2 AND m.missed_blocks IS NULL
     RETURNING 1`,
    [p.producerId, p.totalMissed, p.blocks],
  );
  return rows.length > 0;
}

/** A producer_samples row is kept this long in both storage modes (Timescale: the 0024 policy). */
export const PRODUCER_SAMPLES_RETENTION_DAYS = 400;

/** Plain mode's retention of producer_samples (Timescale drops whole chunks itself): rows deleted. */
export async function pruneProducerSamples(sql: SqlClient, params: { before: Date }): Promise<number> {
  const { rows } = await sql.query(
    `WITH gone AS (DELETE FROM producer_samples WHERE time < $1 RETURNING 1) SELECT count(*)::integer AS n FROM gone`,
    [params.before],
  );
  return z.object({ n: z.number() }).parse(rows[0]).n;
}
