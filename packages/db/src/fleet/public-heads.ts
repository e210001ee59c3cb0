import { API_FAMILIES } from "@rpcpulse/domain";
import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDateOrNull, dbNumber, dbNumberOrNull, float, int4, int8 } from "../sql/row-values.js";

/**
 * The worker's checks of nodes' public URLs (node_public_heads, one row per node). Reads of the
 * stored result go through listNodeHeads / listOrganizationNodeHeads (fleet/node-heads.ts).
 */

/** A node to check: its public URL, API family and network, and its own head right now. */
export interface PublicHeadTarget {
  nodeId: string;
  url: string;
  family: (typeof API_FAMILIES)[number];
  network: string;
  blockIntervalMs: number;
  nodeHeadBlock: number | null;
  nodeSampleTime: Date | null;
}

const TargetRow = z
  .object({
    node_id: z.string(),
    url: z.string(),
    family: z.enum(API_FAMILIES),
    network: z.string(),
    block_interval_ms: dbNumber,
    head_block: dbNumberOrNull,
    sample_time: dbDateOrNull,
  })
  .transform((r): PublicHeadTarget => ({
    nodeId: r.node_id,
    url: r.url,
    family: r.family,
    network: r.network,
    blockIntervalMs: r.block_interval_ms,
    nodeHeadBlock: r.head_block,
    nodeSampleTime: r.sample_time,
  }));

export const ListPublicHeadTargetsParams = z.object({
  /** At most this many nodes, least recently checked first. */
  limit: z.number().int().min(1).max(10_000).default(1_000),
  nodeIds: z.array(z.string().uuid()).max(10_000).optional(),
});
export type ListPublicHeadTargetsParams = z.input<typeof ListPublicHeadTargetsParams>;

/** Nodes with a public URL, each with its newest own head (node_latest pointer). */
export async function listPublicHeadTargets(
  sql: SqlClient,
  params: ListPublicHeadTargetsParams = {},
): Promise<PublicHeadTarget[]> {
  const p = ListPublicHeadTargetsParams.parse(params);
  const { rows } = await sql.query(
    `SELECT n.id::text AS node_id, n.public_url AS url, n.api_family::text AS family, nw.slug AS network,
            nw.block_interval_ms, s.head_block, s.time AS sample_time
     FROM nodes n
     JOIN networks nw ON nw.id = n.network_id
     LEFT JOIN node_latest l ON l.node_id = n.id
     LEFT JOIN node_samples s ON s.node_id = l.node_id AND s.time = l.time
     LEFT JOIN node_public_heads p ON p.node_id = n.id
     WHERE n.public_url IS NOT NULL AND n.public_url <> ''
       AND ($2::uuid[] IS NULL OR n.id = ANY($2::uuid[]))
     ORDER BY p.checked_at ASC NULLS FIRST, n.id
     LIMIT $1`,
    [p.limit, p.nodeIds ?? null],
  );
  return rows.map((r) => TargetRow.parse(r));
}

export const PublicHeadCheck = z.object({
  nodeId: z.string().uuid(),
  url: z.string().min(1).max(2_048),
  checkedAt: z.date(),
  ok: z.boolean(),
  latencyMs: float.nonnegative().nullable(),
  httpStatus: int4.nullable(),
  errorClass: z.string().max(64).nullable(),
  errorMessage: z.string().max(500).nullable(),
  headBlock: int8.nonnegative().nullable(),
  headTime: z.date().nullable(),
  finalizedBlock: int8.nonnegative().nullable(),
  nodeHeadBlock: int8.nonnegative().nullable(),
  nodeSampleTime: z.date().nullable(),
});
export type PublicHeadCheck = z.infer<typeof PublicHeadCheck>;

// One statement for the round. A failed check keeps the last served head (head_*, ok_at) of the
// same URL and starts or continues failing_since; a success clears it. Checks older than the
// stored one (a slow round finishing late) and nodes deleted meanwhile are skipped.
const RECORD_SQL = `
INSERT INTO node_public_heads AS h (node_id, url, checked_at, ok, latency_ms, http_status, error_class,
  error_message, failing_since, ok_at, head_block, head_time, finalized_block, node_head_block, node_sample_time)
SELECT r.node_id, r.url, r.checked_at, r.ok, r.latency_ms, r.http_status, r.error_class, r.error_message,
       CASE WHEN r.ok THEN NULL ELSE r.checked_at END, CASE WHEN r.ok THEN r.checked_at END,
       r.head_block, r.head_time, r.finalized_block, r.node_head_block, r.node_sample_time
FROM jsonb_to_recordset($1::jsonb) AS r(node_id uuid, url text, checked_at timestamptz, ok boolean,
  latency_ms float8, http_status int, error_class text, error_message text, head_block bigint,
  head_time timestamptz, finalized_block bigint, node_head_block bigint, node_sample_time timestamptz)
JOIN nodes n ON n.id = r.node_id
ON CONFLICT (node_id) DO UPDATE SET
  url = EXCLUDED.url,
  checked_at = EXCLUDED.checked_at,
  ok = EXCLUDED.ok,
  latency_ms = EXCLUDED.latency_ms,
  http_status = EXCLUDED.http_status,
  error_class = EXCLUDED.error_class,
  error_message = EXCLUDED.error_message,
  failing_since = CASE WHEN EXCLUDED.ok THEN NULL
                       WHEN h.url = EXCLUDED.url AND NOT h.ok THEN coalesce(h.failing_since, EXCLUDED.checked_at)
                       ELSE EXCLUDED.checked_at END,
  ok_at = CASE WHEN EXCLUDED.ok THEN EXCLUDED.ok_at WHEN h.url = EXCLUDED.url THEN h.ok_at END,
  head_block = CASE WHEN EXCLUDED.ok THEN EXCLUDED.head_block WHEN h.url = EXCLUDED.url THEN h.head_block END,
  head_time = CASE WHEN EXCLUDED.ok THEN EXCLUDED.head_time WHEN h.url = EXCLUDED.url THEN h.head_time END,
  finalized_block = CASE WHEN EXCLUDED.ok THEN EXCLUDED.finalized_block
                         WHEN h.url = EXCLUDED.url THEN h.finalized_block END,
  node_head_block = EXCLUDED.node_head_block,
  node_sample_time = EXCLUDED.node_sample_time
WHERE h.checked_at <= EXCLUDED.checked_at`;

/** Store a round of checks (upsert per node); returns how many rows were written. */
export async function recordPublicHeadChecks(sql: SqlClient, checks: readonly PublicHeadCheck[]): Promise<number> {
  const valid = z
    .array(PublicHeadCheck)
    .max(10_000)
    .parse([...checks]);
  if (valid.length === 0) return 0;
  const payload = valid.map((c) => ({
    node_id: c.nodeId,
    url: c.url,
    checked_at: c.checkedAt.toISOString(),
    ok: c.ok,
    latency_ms: c.latencyMs,
    http_status: c.httpStatus,
    error_class: c.errorClass,
    error_message: c.errorMessage,
    head_block: c.headBlock,
    head_time: c.headTime?.toISOString() ?? null,
    finalized_block: c.finalizedBlock,
    node_head_block: c.nodeHeadBlock,
    node_sample_time: c.nodeSampleTime?.toISOString() ?? null,
  }));
  const { rows } = await sql.query(`WITH w AS (${RECORD_SQL} RETURNING 1) SELECT count(*)::int AS n FROM w`, [
    JSON.stringify(payload),
  ]);
  return z.object({ n: dbNumber }).parse(rows[0]).n;
}

/** Forget checks of URLs that are no longer a node's public URL (changed or cleared). */
export async function prunePublicHeadChecks(sql: SqlClient): Promise<number> {
  const { rows } = await sql.query(
    `WITH d AS (
       DELETE FROM node_public_heads h USING nodes n
       WHERE n.id = h.node_id AND (n.public_url IS NULL OR n.public_url <> h.url)
       RETURNING 1)
     SELECT count(*)::int AS n FROM d`,
  );
  return z.object({ n: dbNumber }).parse(rows[0]).n;
}
