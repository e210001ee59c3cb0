import { AppError } from "@rpcpulse/config";
import { findApiKeyByPrefix, touchApiKeyLastUsed } from "@rpcpulse/db/orgs";
import { type SqlClient } from "@rpcpulse/db/sql";
import type { ServiceContext } from "../context.js";
import { hitRateLimit, type RateLimitStore } from "../status/rate-limit.js";
import { apiKeySecretMatches, parseApiKey } from "./api-key-format.js";

export interface ApiKeyAuthDeps {
  sql: SqlClient;
  /** Redis (ioredis) for the per-key fixed-window limit. */
  rateLimit: RateLimitStore;
  /** Key namespace of the deployment/test in Redis. */
  rateLimitPrefix: string;
  /** Requests per key per minute. */
  perMinute: number;
}

/** last_used_at is written at most this often per key. */
export const API_KEY_TOUCH_INTERVAL_MS = 60_000;

/** Per-process memory of the last write, so most requests skip even the conditional UPDATE. */
const lastTouched = new Map<string, number>();

const INVALID = "Invalid, expired or revoked API key.";

/**
 * Resolve `Authorization: Bearer rpk_...` for the organization in the URL. Unknown, malformed,
 * revoked and expired keys are one 401 (no oracle); a valid key of another organization is the same
 * NOT_FOUND a signed-in non-member gets. Each key has its own rate limit (429 with Retry-After).
 * The context carries role admin for a write key, viewer for a read key.
 */
export async function authenticateApiKey(
  deps: ApiKeyAuthDeps,
  input: { presented: string; organizationId: string; now?: Date },
): Promise<ServiceContext & { apiKeyId: string; apiKeyScope: "read" | "write" }> {
  const now = input.now ?? new Date();
  const parsed = parseApiKey(input.presented);
  if (!parsed) throw new AppError("UNAUTHENTICATED", INVALID);
  const row = await findApiKeyByPrefix(deps.sql, parsed.prefix);
  // Hash the presented secret even when no row matched, so timing does not tell the two apart.
  const matches = apiKeySecretMatches(parsed.secret, row?.secretHash ?? "sha256:");
  if (!row || !matches || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) {
    throw new AppError("UNAUTHENTICATED", INVALID);
  }
  await hitRateLimit(deps.rateLimit, {
    key: `${deps.rateLimitPrefix}:api-key:${row.id}`,
    max: deps.perMinute,
    windowMs: 60_000,
    now: now.getTime(),
  });
  if (row.organizationId !== input.organizationId) throw new AppError("NOT_FOUND", "Organization not found.");
  const previous = lastTouched.get(row.id) ?? 0;
  if (now.getTime() - previous >= API_KEY_TOUCH_INTERVAL_MS) {
    lastTouched.set(row.id, now.getTime());
    if (lastTouched.size > 10_000) lastTouched.delete(lastTouched.keys().next().value as string);
    await touchApiKeyLastUsed(deps.sql, { keyId: row.id, now, minIntervalMs: API_KEY_TOUCH_INTERVAL_MS });
  }
  return {
    userId: `api-key:${row.id}`,
    organizationId: row.organizationId,
    organizationSlug: row.organizationSlug,
    role: row.scope === "write" ? "admin" : "viewer",
    apiKeyId: row.id,
    apiKeyScope: row.scope,
  };
}
