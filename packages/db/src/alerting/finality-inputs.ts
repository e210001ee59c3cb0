/**
 * Finality of each node for the `finality_stalled` alert rule: since when has its newest finalized
 * block been reported, and where was its head then. Raw samples within a bounded lookback; the
 * same relations in TimescaleDB and plain-PostgreSQL mode.
 */
import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbDateOrNull, dbNumberOrNull } from "../sql/row-values.js";

export interface NodeFinalityState {
  nodeId: string;
  /** The newest sample and what it reported. */
  sampleTime: Date;
  headBlock: number | null;
  finalizedBlock: number | null;
  /** First sample after the finalized block last advanced (reporting it); null without finality data. */
  finalizedSince: Date | null;
  /** The node's head at finalizedSince. */
  headAtFinalizedSince: number | null;
  /**
   * No sample in the lookback has a lower finalized block: the finalized block may have stood still
   * for longer than the lookback (finalizedSince is then the oldest sample of it).
   */
  sinceLookbackStart: boolean;
}

const Row = z.object({
  node_id: z.string(),
  sample_time: dbDate,
  head_block: dbNumberOrNull,
  finalized_block: dbNumberOrNull,
  since: dbDateOrNull,
  head_at_since: dbNumberOrNull,
  prev_time: dbDateOrNull,
});

// prev: the newest sample in the lookback whose finalized block is below the current one (the
// finalized block advanced after it); since: the first sample after prev reporting at least the
// current finalized block. Both are index range scans on (node_id, time).
const FINALITY_SQL = `
SELECT l.node_id::text AS node_id, s.time AS sample_time, s.head_block, s.finalized_block,
       f.time AS since, f.head_block AS head_at_since, prev.time AS prev_time
FROM node_latest l
JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
LEFT JOIN LATERAL (
  SELECT o.time FROM node_samples o
  WHERE o.node_id = l.node_id AND o.time >= $2 AND o.time < l.time AND o.finalized_block < s.finalized_block
  ORDER BY o.time DESC LIMIT 1
) prev ON true
LEFT JOIN LATERAL (
  SELECT o.time, o.head_block FROM node_samples o
  WHERE o.node_id = l.node_id AND o.time <= l.time AND o.finalized_block >= s.finalized_block
    AND ((prev.time IS NULL AND o.time >= $2) OR o.time > prev.time)
  ORDER BY o.time LIMIT 1
) f ON true
WHERE l.node_id = ANY($1::uuid[])`;

export const ReadNodeFinalityParams = z.object({
  nodeIds: z.array(z.string().uuid()).max(10_000),
  /** Oldest sample looked at; a stall longer than this reads as starting here. */
  since: z.date(),
});

/** Finality state of each node with a sample (nodes without one are left out). */
export async function readNodeFinalityStates(
  sql: SqlClient,
  params: z.input<typeof ReadNodeFinalityParams>,
): Promise<Map<string, NodeFinalityState>> {
  const p = ReadNodeFinalityParams.parse(params);
  if (p.nodeIds.length === 0) return new Map();
  const { rows } = await sql.query(FINALITY_SQL, [p.nodeIds, p.since]);
  return new Map(
    rows.map((raw) => {
      const r = Row.parse(raw);
      const state: NodeFinalityState = {
        nodeId: r.node_id,
        sampleTime: r.sample_time,
        headBlock: r.head_block,
        finalizedBlock: r.finalized_block,
        finalizedSince: r.since,
        headAtFinalizedSince: r.head_at_since,
        sinceLookbackStart: r.since !== null && r.prev_time === null,
      };
      return [r.node_id, state];
    }),
  );
}
