import { z } from "zod";
import { orgShardCondition, orgShardParams, type OrgShard } from "../sql/org-shards.js";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber } from "../sql/row-values.js";

/**
 * What the advisor sweep needs about nodes: which have samples it has not evaluated yet (node_latest
 * against advisor_node_cursors), the facts about each that gate the rules, and the settings the agent
 * reported last (node_reported_settings, written by the ingest flush).
 */

export interface AdvisorNodeRow {
  id: string;
  organizationId: string;
  name: string;
  apiFamily: "hive" | "ethereum" | "substrate" | "sidecar";
  clientName: string;
  clientVersion: string | null;
  chainSlug: string;
  blockIntervalMs: number;
  localRpcUrl: string;
  publicUrl: string | null;
  /** Newest stored sample. */
  latestSampleAt: Date;
  /** Newest sample the previous evaluation covered (null: never evaluated). */
  evaluatedUpTo: Date | null;
}

const NodeRowSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  name: z.string(),
  api_family: z.enum(["hive", "ethereum", "substrate", "sidecar"]),
  client_name: z.string(),
  client_version: z.string().nullable(),
  chain_slug: z.string(),
  block_interval_ms: dbNumber,
  local_rpc_url: z.string(),
  public_url: z.string().nullable(),
  latest_sample_at: dbDate,
  evaluated_up_to: dbDate.nullable(),
});

const SELECT = `
SELECT n.id, n.organization_id, n.name, n.api_family::text AS api_family, n.client_name, n.client_version,
       w.chain_slug, w.block_interval_ms, n.local_rpc_url, n.public_url,
       l.time AS latest_sample_at, c.evaluated_up_to
FROM node_latest l
JOIN nodes n ON n.id = l.node_id
JOIN networks w ON w.id = n.network_id
LEFT JOIN advisor_node_cursors c ON c.node_id = n.id`;

const DUE_SQL = `${SELECT}
WHERE (c.node_id IS NULL OR l.time > c.evaluated_up_to) AND ${orgShardCondition("n.organization_id", "$2", "$3")}
ORDER BY c.evaluated_at ASC NULLS FIRST, n.id
LIMIT $1`;

const ONE_SQL = `${SELECT}
WHERE n.id = $1`;

function toRow(raw: unknown): AdvisorNodeRow {
  const r = NodeRowSchema.parse(raw);
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    apiFamily: r.api_family,
    clientName: r.client_name,
    clientVersion: r.client_version,
    chainSlug: r.chain_slug,
    blockIntervalMs: r.block_interval_ms,
    localRpcUrl: r.local_rpc_url,
    publicUrl: r.public_url,
    latestSampleAt: r.latest_sample_at,
    evaluatedUpTo: r.evaluated_up_to,
  };
}

/**
 * Nodes with samples newer than their last evaluation, least recently evaluated first, at most
 * `limit` (the sweep's bounded work per run). Nodes without any sample are never listed.
 */
export async function listNodesDueForAdvice(
  sql: SqlClient,
  input: { limit: number; shard?: OrgShard | undefined },
): Promise<AdvisorNodeRow[]> {
  const limit = z.number().int().min(1).max(10_000).parse(input.limit);
  const { rows } = await sql.query(DUE_SQL, [limit, ...orgShardParams(input.shard)]);
  return rows.map(toRow);
}

/** The advisor facts of one node with samples, or null. */
export async function getAdvisorNode(sql: SqlClient, nodeId: string): Promise<AdvisorNodeRow | null> {
  const id = z.string().uuid().parse(nodeId);
  const { rows } = await sql.query(ONE_SQL, [id]);
  return rows.length > 0 ? toRow(rows[0]) : null;
}

/**
 * Record that each node was evaluated over samples up to its `evaluatedUpTo` (never moved back), in
 * one statement (each node at most once).
 */
export async function recordAdvisorCursors(
  sql: SqlClient,
  rows: readonly { nodeId: string; evaluatedUpTo: Date; evaluatedAt: Date }[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql.query(
    `INSERT INTO advisor_node_cursors (node_id, evaluated_up_to, evaluated_at)
     SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[])
     ON CONFLICT (node_id) DO UPDATE SET evaluated_up_to = greatest(advisor_node_cursors.evaluated_up_to, EXCLUDED.evaluated_up_to),
       evaluated_at = EXCLUDED.evaluated_at`,
    [rows.map((r) => r.nodeId), rows.map((r) => r.evaluatedUpTo), rows.map((r) => r.evaluatedAt)],
  );
}

/** Record that the node was evaluated over samples up to `evaluatedUpTo`. */
export async function recordAdvisorCursor(
  sql: SqlClient,
  input: { nodeId: string; evaluatedUpTo: Date; evaluatedAt: Date },
): Promise<void> {
  await recordAdvisorCursors(sql, [input]);
}

export interface ReportedSettingsRow {
  nodeId: string;
  /** The agent's wire `settings` group (plus what the ingest adds), as JSON. */
  settings: Record<string, unknown>;
  reportedAt: Date;
}

/** Upsert the newest reported settings of several nodes (older reports never overwrite newer ones). */
export async function upsertReportedSettings(
  sql: SqlClient,
  rows: readonly { nodeId: string; settings: unknown; reportedAt: Date }[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql.query(
    `INSERT INTO node_reported_settings (node_id, settings, reported_at)
     SELECT v.node_id, v.settings, v.reported_at
     FROM unnest($1::uuid[], $2::jsonb[], $3::timestamptz[]) AS v(node_id, settings, reported_at)
     -- A node deleted meanwhile is skipped (ingest never fails on it).
     WHERE EXISTS (SELECT 1 FROM nodes n WHERE n.id = v.node_id)
     -- Top-level keys merge: a batch that reported only some parts keeps the others' last report.
     ON CONFLICT (node_id) DO UPDATE SET settings = node_reported_settings.settings || EXCLUDED.settings,
       reported_at = EXCLUDED.reported_at
     WHERE node_reported_settings.reported_at <= EXCLUDED.reported_at`,
    [rows.map((r) => r.nodeId), rows.map((r) => JSON.stringify(r.settings)), rows.map((r) => r.reportedAt)],
  );
}

const SettingsRow = z.object({
  node_id: z.string(),
  settings: z.record(z.string(), z.unknown()),
  reported_at: dbDate,
});

export async function getReportedSettings(sql: SqlClient, nodeId: string): Promise<ReportedSettingsRow | null> {
  const id = z.string().uuid().parse(nodeId);
  const { rows } = await sql.query(
    "SELECT node_id, settings, reported_at FROM node_reported_settings WHERE node_id = $1",
    [id],
  );
  if (rows.length === 0) return null;
  const r = SettingsRow.parse(rows[0]);
  return { nodeId: r.node_id, settings: r.settings, reportedAt: r.reported_at };
}

/** getReportedSettings for several nodes in one query, keyed by node id (nodes without a report are absent). */
export async function listReportedSettings(
  sql: SqlClient,
  nodeIds: readonly string[],
): Promise<Map<string, ReportedSettingsRow>> {
  const ids = z.array(z.string().uuid()).parse(nodeIds);
  if (ids.length === 0) return new Map();
  const { rows } = await sql.query(
    "SELECT node_id, settings, reported_at FROM node_reported_settings WHERE node_id = ANY($1::uuid[])",
    [ids],
  );
  return new Map(
    rows.map((raw) => {
      const r = SettingsRow.parse(raw);
      return [r.node_id, { nodeId: r.node_id, settings: r.settings, reportedAt: r.reported_at }];
    }),
  );
}
