import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbDateOrNull } from "../sql/row-values.js";

/**
 * agent_tokens (Prisma model AgentToken): only the public prefix and a hash of the secret are
 * stored. Every read that serves a tenant goes through the node's organization.
 */

export const AgentTokenRecord = z
  .object({
    id: z.string(),
    node_id: z.string(),
    prefix: z.string(),
    created_at: dbDate,
    expires_at: dbDateOrNull,
    revoked_at: dbDateOrNull,
    last_used_at: dbDateOrNull,
  })
  .transform((r) => ({
    id: r.id,
    nodeId: r.node_id,
    prefix: r.prefix,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
  }));
export type AgentTokenRecord = z.infer<typeof AgentTokenRecord>;

const RECORD_COLUMNS = "t.id, t.node_id, t.prefix, t.created_at, t.expires_at, t.revoked_at, t.last_used_at";

export interface InsertAgentTokenInput {
  nodeId: string;
  prefix: string;
  secretHash: string;
}

export async function insertAgentToken(sql: SqlClient, input: InsertAgentTokenInput): Promise<AgentTokenRecord> {
  const { rows } = await sql.query(
    `INSERT INTO agent_tokens AS t (node_id, prefix, secret_hash) VALUES ($1, $2, $3) RETURNING ${RECORD_COLUMNS}`,
    [input.nodeId, input.prefix, input.secretHash],
  );
  return AgentTokenRecord.parse(rows[0]);
}

/**
 * Give every other live token of the node an expiry of at most `expiresAt` (rotation overlap);
 * tokens already expiring sooner keep their earlier expiry. Returns the prefixes touched.
 */
export async function expireOtherAgentTokens(
  sql: SqlClient,
  input: { nodeId: string; keepId: string; expiresAt: Date },
): Promise<string[]> {
  const { rows } = await sql.query(
    `UPDATE agent_tokens SET expires_at = least(coalesce(expires_at, $3), $3)
     WHERE node_id = $1 AND id <> $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $3)
     RETURNING prefix`,
    [input.nodeId, input.keepId, input.expiresAt],
  );
  return rows.map((r) => z.object({ prefix: z.string() }).parse(r).prefix);
}

/** Revoke one token of a node of the organization; null when no such live token. */
export async function revokeAgentTokenRow(
  sql: SqlClient,
  input: { organizationId: string; tokenId: string; now: Date },
): Promise<AgentTokenRecord | null> {
  const { rows } = await sql.query(
    `UPDATE agent_tokens AS t SET revoked_at = $3
     FROM nodes n
     WHERE t.id = $2::uuid AND n.id = t.node_id AND n.organization_id = $1 AND t.revoked_at IS NULL
     RETURNING ${RECORD_COLUMNS}`,
    [input.organizationId, input.tokenId, input.now],
  );
  return rows[0] ? AgentTokenRecord.parse(rows[0]) : null;
}

/** Tokens of a node of the organization, newest first (metadata only; never the hash). */
export async function listAgentTokenRows(
  sql: SqlClient,
  input: { organizationId: string; nodeId: string },
): Promise<AgentTokenRecord[]> {
  const { rows } = await sql.query(
    `SELECT ${RECORD_COLUMNS} FROM agent_tokens t JOIN nodes n ON n.id = t.node_id
     WHERE t.node_id = $2::uuid AND n.organization_id = $1 ORDER BY t.created_at DESC, t.id`,
    [input.organizationId, input.nodeId],
  );
  return rows.map((r) => AgentTokenRecord.parse(r));
}

/** What the ingest API needs to authenticate a token: the hash, its state and its node. */
export const AgentTokenCredential = z
  .object({
    id: z.string(),
    prefix: z.string(),
    secret_hash: z.string(),
    expires_at: dbDateOrNull,
    revoked_at: dbDateOrNull,
    last_used_at: dbDateOrNull,
    node_id: z.string(),
    organization_id: z.string(),
    network_id: z.string(),
    network_slug: z.string(),
  })
  .transform((r) => ({
    tokenId: r.id,
    prefix: r.prefix,
    secretHash: r.secret_hash,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
    nodeId: r.node_id,
    organizationId: r.organization_id,
    networkId: r.network_id,
    /** The catalogue slug of the node's network (plausible head range at ingest). */
    networkSlug: r.network_slug,
  }));
export type AgentTokenCredential = z.infer<typeof AgentTokenCredential>;

/**
 * The credentials of these prefixes in one statement (the ingest API reads its cache misses
 * together, those that came in while its previous read was in flight), by prefix; an unknown
 * prefix is absent from the map.
 */
export async function findAgentTokenCredentials(
  sql: SqlClient,
  prefixes: readonly string[],
): Promise<Map<string, AgentTokenCredential>> {
  const { rows } = await sql.query(
    `SELECT t.id, t.prefix, t.secret_hash, t.expires_at, t.revoked_at, t.last_used_at,
            n.id AS node_id, n.organization_id, n.network_id, net.slug AS network_slug
     FROM agent_tokens t JOIN nodes n ON n.id = t.node_id JOIN networks net ON net.id = n.network_id
     WHERE t.prefix = ANY($1::text[])`,
    [prefixes],
  );
  const out = new Map<string, AgentTokenCredential>();
  for (const row of rows) {
    const credential = AgentTokenCredential.parse(row);
    out.set(credential.prefix, credential);
  }
  return out;
}

/**
 * Set each token's lastUsedAt to its time unless it was set less than `minIntervalMs` before (at
 * most one write a minute per token), several tokens in one statement; returns the ids written.
 */
export async function touchAgentTokensLastUsed(
  sql: SqlClient,
  input: { touches: readonly { tokenId: string; at: Date }[]; minIntervalMs: number },
): Promise<string[]> {
  const { rows } = await sql.query(
    `UPDATE agent_tokens t SET last_used_at = v.at
     FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, at)
     WHERE t.id = v.id
       AND (t.last_used_at IS NULL OR t.last_used_at <= v.at - make_interval(secs => $3::float8 / 1000))
     RETURNING t.id`,
    [input.touches.map((t) => t.tokenId), input.touches.map((t) => t.at), input.minIntervalMs],
  );
  return (rows as { id: string }[]).map((r) => r.id);
}
