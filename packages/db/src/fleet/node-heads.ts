import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDateOrNull, dbNumber, dbNumberOrNull } from "../sql/row-values.js";

/**
 * Each node's heads as of its newest sample: its own head and finalized block (finality lag =
 * head − finalized), and the latest check of its public URL (node_public_heads, only while the URL
 * checked is still the node's public URL). Same relations in both storage modes.
 */

/** The latest check of a node's public URL (see migration 0010_finality_public_head). */
export interface NodePublicHeadRow {
  url: string;
  checkedAt: Date;
  ok: boolean;
  latencyMs: number | null;
  httpStatus: number | null;
  errorClass: string | null;
  errorMessage: string | null;
  failingSince: Date | null;
  /** Newest successful check; headBlock/headTime/finalizedBlock are from it. */
  okAt: Date | null;
  headBlock: number | null;
  headTime: Date | null;
  finalizedBlock: number | null;
  /** The node's own head when the check ran. */
  nodeHeadBlock: number | null;
  nodeSampleTime: Date | null;
}

export interface NodeHeadsRow {
  nodeId: string;
  blockIntervalMs: number;
  publicUrl: string | null;
  sampleTime: Date | null;
  headBlock: number | null;
  finalizedBlock: number | null;
  publicHead: NodePublicHeadRow | null;
}

const Row = z
  .object({
    node_id: z.string(),
    block_interval_ms: dbNumber,
    public_url: z.string().nullable(),
    sample_time: dbDateOrNull,
    head_block: dbNumberOrNull,
    finalized_block: dbNumberOrNull,
    p_url: z.string().nullable(),
    p_checked_at: dbDateOrNull,
    p_ok: z.boolean().nullable(),
    p_latency_ms: dbNumberOrNull,
    p_http_status: dbNumberOrNull,
    p_error_class: z.string().nullable(),
    p_error_message: z.string().nullable(),
    p_failing_since: dbDateOrNull,
    p_ok_at: dbDateOrNull,
    p_head_block: dbNumberOrNull,
    p_head_time: dbDateOrNull,
    p_finalized_block: dbNumberOrNull,
    p_node_head_block: dbNumberOrNull,
    p_node_sample_time: dbDateOrNull,
  })
  .transform((r): NodeHeadsRow => ({
    nodeId: r.node_id,
    blockIntervalMs: r.block_interval_ms,
    publicUrl: r.public_url,
    sampleTime: r.sample_time,
    headBlock: r.head_block,
    finalizedBlock: r.finalized_block,
    publicHead:
      r.p_url !== null && r.p_checked_at !== null && r.p_ok !== null
        ? {
            url: r.p_url,
            checkedAt: r.p_checked_at,
            ok: r.p_ok,
            latencyMs: r.p_latency_ms,
            httpStatus: r.p_http_status,
            errorClass: r.p_error_class,
            errorMessage: r.p_error_message,
            failingSince: r.p_failing_since,
            okAt: r.p_ok_at,
            headBlock: r.p_head_block,
            headTime: r.p_head_time,
            finalizedBlock: r.p_finalized_block,
            nodeHeadBlock: r.p_node_head_block,
            nodeSampleTime: r.p_node_sample_time,
          }
        : null,
  }));

function nodeHeadsSql(where: string): string {
  return `
SELECT n.id::text AS node_id, nw.block_interval_ms, n.public_url,
       s.time AS sample_time, s.head_block, s.finalized_block,
       p.url AS p_url, p.checked_at AS p_checked_at, p.ok AS p_ok, p.latency_ms AS p_latency_ms,
       p.http_status AS p_http_status, p.error_class AS p_error_class, p.error_message AS p_error_message,
       p.failing_since AS p_failing_since, p.ok_at AS p_ok_at, p.head_block AS p_head_block,
       p.head_time AS p_head_time, p.finalized_block AS p_finalized_block,
       p.node_head_block AS p_node_head_block, p.node_sample_time AS p_node_sample_time
FROM nodes n
JOIN networks nw ON nw.id = n.network_id
LEFT JOIN node_latest l ON l.node_id = n.id
LEFT JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
LEFT JOIN node_public_heads p ON p.node_id = n.id AND p.url = n.public_url
WHERE ${where}`;
}

const BY_ORGANIZATION_SQL = nodeHeadsSql("n.organization_id = $1");
const BY_IDS_SQL = nodeHeadsSql("n.id = ANY($1::uuid[])");

/** Heads of every node of an organization (fleet overview; one primary-key lookup per node). */
export async function listOrganizationNodeHeads(sql: SqlClient, organizationId: string): Promise<NodeHeadsRow[]> {
  const id = z.string().min(1).max(64).parse(organizationId);
  const { rows } = await sql.query(BY_ORGANIZATION_SQL, [id]);
  return rows.map((r) => Row.parse(r));
}

/** Heads of the given nodes (node page, status pages, alerts); unknown ids are left out. */
export async function listNodeHeads(sql: SqlClient, nodeIds: readonly string[]): Promise<NodeHeadsRow[]> {
  const ids = z
    .array(z.string().uuid())
    .max(10_000)
    .parse([...nodeIds]);
  if (ids.length === 0) return [];
  const { rows } = await sql.query(BY_IDS_SQL, [ids]);
  return rows.map((r) => Row.parse(r));
}
