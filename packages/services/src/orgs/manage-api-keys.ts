import { AppError } from "@rpcpulse/config";
import { API_KEY_SCOPES, insertApiKey, listApiKeyRows, revokeApiKeyRow, type ApiKeyRecord } from "@rpcpulse/db/orgs";
import { type SqlClient } from "@rpcpulse/db/sql";
import { z } from "zod";
import { requireRole, type ServiceContext } from "../context.js";
import { displayApiKeyPrefix, generateApiKey } from "./api-key-format.js";

/**
 * Create, list and revoke an organization's API keys: admins and owners, signed in. A key never
 * manages keys (nor members): a leaked key cannot mint itself a successor or lock the owners out.
 */
export interface ApiKeyDeps {
  sql: SqlClient;
}

/** Longest lifetime a key may be given; `null` (no expiry) must be asked for explicitly. */
export const API_KEY_MAX_DAYS = 365;

export const CreateApiKeyInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Enter a name.")
      .max(64)
      .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._:/-]*$/u, "Letters, digits, spaces and . _ : / -"),
    scope: z.enum(API_KEY_SCOPES),
    /** Days until the key stops working (1..365), or null for a key that does not expire. */
    expiresInDays: z.number().int().min(1).max(API_KEY_MAX_DAYS).nullable().default(90),
  })
  .strict();
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;

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

function requireSessionAdmin(ctx: ServiceContext): void {
  if (ctx.apiKeyId) throw new AppError("FORBIDDEN", "API keys are managed by signed-in admins only, not by API keys.");
  requireRole(ctx, "admin");
}

/** A new key; `key` is the plaintext, returned this once. */
export async function createApiKey(
  deps: ApiKeyDeps,
  ctx: ServiceContext,
  input: unknown,
  now: Date = new Date(),
): Promise<{ key: string; apiKey: ApiKeyView }> {
  requireSessionAdmin(ctx);
  const parsed = CreateApiKeyInput.parse(input);
  const generated = generateApiKey();
  const expiresAt = parsed.expiresInDays === null ? null : new Date(now.getTime() + parsed.expiresInDays * 86_400_000);
  const record = await insertApiKey(deps.sql, {
    organizationId: ctx.organizationId,
    name: parsed.name,
    scope: parsed.scope,
    prefix: generated.prefix,
    secretHash: generated.secretHash,
    createdBy: ctx.userId,
    expiresAt,
  });
  return { key: generated.key, apiKey: presentApiKey(record, now) };
}

export async function listApiKeys(
  deps: ApiKeyDeps,
  ctx: ServiceContext,
  now: Date = new Date(),
): Promise<ApiKeyView[]> {
  requireSessionAdmin(ctx);
  return (await listApiKeyRows(deps.sql, { organizationId: ctx.organizationId })).map((r) => presentApiKey(r, now));
}

/** Revoke at once: the next request with the key is refused (keys are looked up on every request). */
export async function revokeApiKey(
  deps: ApiKeyDeps,
  ctx: ServiceContext,
  input: { keyId: string },
  now: Date = new Date(),
): Promise<ApiKeyView> {
  requireSessionAdmin(ctx);
  const keyId = z.string().uuid().safeParse(input.keyId);
  if (!keyId.success) throw new AppError("NOT_FOUND", "API key not found.");
  const record = await revokeApiKeyRow(deps.sql, { organizationId: ctx.organizationId, keyId: keyId.data, now });
  if (!record) throw new AppError("NOT_FOUND", "API key not found.");
  return presentApiKey(record, now);
}
