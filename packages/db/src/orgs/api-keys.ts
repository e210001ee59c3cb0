import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbDateOrNull } from "../sql/row-values.js";

/**
 * api_keys (migration 0015, raw SQL only): an organization's automation credentials. Only the
 * public prefix and a hash of the secret are stored. Every tenant-facing read and write names the
 * organization, so another organization's key id behaves like one that does not exist.
 */

export const API_KEY_SCOPES = ["read", "write"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const ApiKeyRecord = z
  .object({
    id: z.string(),
    organization_id: z.string(),
    name: z.string(),
    scope: z.enum(API_KEY_SCOPES),
    prefix: z.string(),
    created_by: z.string().nullable(),
    created_at: dbDate,
    last_used_at: dbDateOrNull,
    expires_at: dbDateOrNull,
    revoked_at: dbDateOrNull,
  })
  .transform((r) => ({
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    scope: r.scope,
    prefix: r.prefix,
    createdBy: r.created_by,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
  }));
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;

const COLUMNS =
  "k.id, k.organization_id, k.name, k.scope, k.prefix, k.created_by, k.created_at, k.last_used_at, k.expires_at, k.revoked_at";

export interface InsertApiKeyInput {
  organizationId: string;
  name: string;
  scope: ApiKeyScope;
  prefix: string;
  secretHash: string;
  createdBy: string;
  expiresAt: Date | null;
}

export async function insertApiKey(sql: SqlClient, input: InsertApiKeyInput): Promise<ApiKeyRecord> {
  const { rows } = await sql.query(
    `INSERT INTO api_keys AS k (organization_id, name, scope, prefix, secret_hash, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [input.organizationId, input.name, input.scope, input.prefix, input.secretHash, input.createdBy, input.expiresAt],
  );
  return ApiKeyRecord.parse(rows[0]);
}

/** Keys of an organization, newest first (metadata only; never the hash). */
export async function listApiKeyRows(sql: SqlClient, input: { organizationId: string }): Promise<ApiKeyRecord[]> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS} FROM api_keys k WHERE k.organization_id = $1 ORDER BY k.created_at DESC, k.id`,
    [input.organizationId],
  );
  return rows.map((r) => ApiKeyRecord.parse(r));
}

/** Revoke one live key of the organization; null when there is no such live key. */
export async function revokeApiKeyRow(
  sql: SqlClient,
  input: { organizationId: string; keyId: string; now: Date },
): Promise<ApiKeyRecord | null> {
  const { rows } = await sql.query(
    `UPDATE api_keys AS k SET revoked_at = $3
     WHERE k.id = $2::uuid AND k.organization_id = $1 AND k.revoked_at IS NULL
     RETURNING ${COLUMNS}`,
    [input.organizationId, input.keyId, input.now],
  );
  return rows[0] ? ApiKeyRecord.parse(rows[0]) : null;
}

/** The row a presented key's prefix names, with its hash (for verification only; never returned to callers). */
export async function findApiKeyByPrefix(
  sql: SqlClient,
  prefix: string,
): Promise<(ApiKeyRecord & { secretHash: string; organizationSlug: string }) | null> {
  const { rows } = await sql.query(
    `SELECT ${COLUMNS}, k.secret_hash, o.slug AS organization_slug
     FROM api_keys k JOIN organizations o ON o.id = k.organization_id WHERE k.prefix = $1`,
    [prefix],
  );
  if (!rows[0]) return null;
  const extra = z.object({ secret_hash: z.string(), organization_slug: z.string() }).parse(rows[0]);
  return { ...ApiKeyRecord.parse(rows[0]), secretHash: extra.secret_hash, organizationSlug: extra.organization_slug };
}

/**
 * Record a use: writes only when the stored time is older than `minIntervalMs` (at most one write a
 * minute per key under load). Returns whether a row was written.
 */
export async function touchApiKeyLastUsed(
  sql: SqlClient,
  input: { keyId: string; now: Date; minIntervalMs: number },
): Promise<boolean> {
  const { rows } = await sql.query(
    `UPDATE api_keys SET last_used_at = $2
     WHERE id = $1::uuid AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - make_interval(secs => $3::double precision / 1000))
     RETURNING id`,
    [input.keyId, input.now, input.minIntervalMs],
  );
  return rows.length > 0;
}
