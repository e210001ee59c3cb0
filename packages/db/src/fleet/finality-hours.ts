import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber } from "../sql/row-values.js";

/** One hour of a node's finality lag (status pages' 24-hour charts). */
export interface FinalityHourPoint {
  nodeId: string;
  bucket: Date;
  /** max(head) − max(finalized) of the hour: about the lag at the hour's last sample. */
  finalityLagBlocks: number;
}

const Params = z
  .object({
    nodeIds: z.array(z.string().uuid()).max(2_000),
    from: z.date(),
    to: z.date(),
  })
  .refine((p) => p.from.getTime() < p.to.getTime(), { message: "from must be before to", path: ["from"] });

const HourRow = z.object({ node_id: z.string(), bucket: dbDate, lag: dbNumber });

/**
 * Hourly finality lag of nodes in [from, to) from the 1-hour rollups (head_block and finalized_block
 * are per-bucket maxima in both storage modes). Hours without a finalized block are left out.
 */
export async function queryFinalityHourSeries(
  sql: SqlClient,
  params: z.input<typeof Params>,
): Promise<FinalityHourPoint[]> {
  const p = Params.parse(params);
  if (p.nodeIds.length === 0) return [];
  const { rows } = await sql.query(
    `SELECT node_id::text AS node_id, bucket, greatest(head_block - finalized_block, 0) AS lag
     FROM node_samples_1h
     WHERE node_id = ANY($1::uuid[]) AND bucket >= $2 AND bucket < $3
       AND head_block IS NOT NULL AND finalized_block IS NOT NULL
     ORDER BY bucket`,
    [p.nodeIds, p.from, p.to],
  );
  return rows.map((raw) => {
    const r = HourRow.parse(raw);
    return { nodeId: r.node_id, bucket: r.bucket, finalityLagBlocks: r.lag };
  });
}
