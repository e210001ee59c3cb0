import { AppError } from "@rpcpulse/config";
import { type ApiKeyRecord } from "@rpcpulse/db/orgs";
import { type SqlClient } from "@rpcpulse/db/sql";
import { requireRole, type ServiceContext } from "../context.js";
import { displayApiKeyPrefix } from "./api-key-format.js";

/**
 * Create, list and revoke an organization's API keys: admins and owners, signed in. A key never
 * manages keys (nor members): a leaked key cannot mint itself a successor or lock the owners out.
 */
export interface ApiKeyDeps {
  sql: SqlClient;
}

/** Key metadata as callers see it (never the secret or its hash). */
export interface ApiKeyView {
  id: string;
  name: string;
  scope: "read" | "write";
  prefix: string;
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  state: "active" | "expired" | "revoked";
}

export function presentApiKey(r: ApiKeyRecord, now: Date = new Date()): ApiKeyView {
  const state = r.revokedAt ? "revoked" : r.expiresAt && r.expiresAt <= now ? "expired" : "active";
  return {
    id: r.id,
    name: r.name,
    scope: r.scope,
    prefix: displayApiKeyPrefix(r.prefix),
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
    state,
  };
}

export function requireSessionAdmin(ctx: ServiceContext): void {
  if (ctx.apiKeyId) throw new AppError("FORBIDDEN", "API keys are managed by signed-in admins only, not by API keys.");
  requireRole(ctx, "admin");
}
