import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";

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
