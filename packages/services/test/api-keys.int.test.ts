// Organization API keys against a fresh PostgreSQL database and the shared Redis: the key format and
// hash at rest, expiry, revocation, scope -> role, tenant scoping, last-used throttling and the
// per-key rate limit (real Redis INCR/PEXPIRE).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { AppError } from "@rpcpulse/config";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { createRedisConnection } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import {
  authenticateApiKey,
  createApiKey,
  listApiKeys,
  parseApiKey,
  revokeApiKey,
  type ApiKeyAuthDeps,
} from "@rpcpulse/services/orgs";
import { type ServiceContext } from "@rpcpulse/services/context";

async function seedOrg(db: TestDatabase, role: ServiceContext["role"] = "admin"): Promise<ServiceContext> {
  const org = await createTestOrg(db);
  return { userId: "user-1", organizationId: org.id, organizationSlug: org.slug, role };
}

async function rejectsWith(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (e: unknown) => e instanceof AppError && e.code === code);
}

describe("organization API keys (real PostgreSQL + Redis)", () => {
  let db: TestDatabase;
  const redis = createRedisConnection(SHARED_REDIS_URL, { role: "producer", connectionName: "api-keys-test" });
  const prefix = uniquePrefix();
  let auth: ApiKeyAuthDeps;
  before(async () => {
    db = await createTestDatabase();
    db.pool.on("error", () => undefined);
    auth = { sql: db.pool, rateLimit: redis, rateLimitPrefix: prefix, perMinute: 1000 };
  });
  after(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  it("shows rpk_<prefix>_<secret> once and stores only the prefix and a SHA-256 of the secret", async () => {
    const ctx = await seedOrg(db);
    const { key, apiKey } = await createApiKey({ sql: db.pool }, ctx, { name: "ci deploy", scope: "write" });
    const parts = parseApiKey(key);
    assert.ok(parts);
    assert.equal(Buffer.from(parts.secret, "base64url").length, 32);
    assert.equal(apiKey.prefix, `rpk_${parts.prefix}`);
    assert.equal(apiKey.state, "active");
    const { rows } = await db.pool.query<{ t: string }>("SELECT k::text AS t FROM api_keys k WHERE prefix = $1", [
      parts.prefix,
    ]);
    assert.equal(rows.length, 1);
    assert.ok(!rows[0]!.t.includes(parts.secret), "secret stored in clear");
    assert.match(rows[0]!.t, /sha256:[0-9a-f]{64}/);
    const listed = await listApiKeys({ sql: db.pool }, ctx);
    assert.equal(listed.length, 1);
    assert.ok(!JSON.stringify(listed).includes(parts.secret));
    assert.ok(!JSON.stringify(listed).includes("sha256:"));
  });

  it("resolves a write key to admin and a read key to viewer, in the key's organization only", async () => {
    const a = await seedOrg(db);
    const b = await seedOrg(db);
    const write = await createApiKey({ sql: db.pool }, a, { name: "w", scope: "write" });
    const read = await createApiKey({ sql: db.pool }, a, { name: "r", scope: "read" });
    const w = await authenticateApiKey(auth, { presented: write.key, organizationId: a.organizationId });
    assert.equal(w.role, "admin");
    assert.equal(w.apiKeyScope, "write");
    assert.equal(w.userId, `api-key:${write.apiKey.id}`);
    const r = await authenticateApiKey(auth, { presented: read.key, organizationId: a.organizationId });
    assert.equal(r.role, "viewer");
    // Org A's key on org B: the NOT_FOUND a signed-in non-member gets.
    await rejectsWith(
      authenticateApiKey(auth, { presented: write.key, organizationId: b.organizationId }),
      "NOT_FOUND",
    );
  });

  it("refuses malformed, unknown, wrong-secret, expired and revoked keys with one 401", async () => {
    const ctx = await seedOrg(db);
    const { key, apiKey } = await createApiKey({ sql: db.pool }, ctx, {
      name: "short",
      scope: "read",
      expiresInDays: 1,
    });
    const org = ctx.organizationId;
    await rejectsWith(authenticateApiKey(auth, { presented: "rpk_nope", organizationId: org }), "UNAUTHENTICATED");
    const forged = key.slice(0, -4) + (key.endsWith("AAAA") ? "BBBB" : "AAAA");
    await rejectsWith(authenticateApiKey(auth, { presented: forged, organizationId: org }), "UNAUTHENTICATED");
    const unknown = `rpk_${randomBytes(8).toString("hex")}_${randomBytes(32).toString("base64url")}`;
    await rejectsWith(authenticateApiKey(auth, { presented: unknown, organizationId: org }), "UNAUTHENTICATED");
    const later = new Date(Date.now() + 86_400_000 + 1_000);
    await rejectsWith(authenticateApiKey(auth, { presented: key, organizationId: org, now: later }), "UNAUTHENTICATED");
    await authenticateApiKey(auth, { presented: key, organizationId: org });
    const revoked = await revokeApiKey({ sql: db.pool }, ctx, { keyId: apiKey.id });
    assert.equal(revoked.state, "revoked");
    await rejectsWith(authenticateApiKey(auth, { presented: key, organizationId: org }), "UNAUTHENTICATED");
    await rejectsWith(revokeApiKey({ sql: db.pool }, ctx, { keyId: apiKey.id }), "NOT_FOUND");
  });

  it("bounds the expiry, needs a signed-in admin, and never lets a key manage keys", async () => {
    const ctx = await seedOrg(db);
    const invalid = (e: unknown) => e instanceof Error && e.name === "ZodError";
    await assert.rejects(
      createApiKey({ sql: db.pool }, ctx, { name: "x", scope: "write", expiresInDays: 366 }),
      invalid,
    );
    await assert.rejects(createApiKey({ sql: db.pool }, ctx, { name: "x", scope: "admin" }), invalid);
    await rejectsWith(
      createApiKey({ sql: db.pool }, { ...ctx, role: "viewer" }, { name: "x", scope: "read" }),
      "FORBIDDEN",
    );
    const never = await createApiKey({ sql: db.pool }, ctx, { name: "forever", scope: "read", expiresInDays: null });
    assert.equal(never.apiKey.expiresAt, null);
    const keyCtx = await authenticateApiKey(auth, { presented: never.key, organizationId: ctx.organizationId });
    await rejectsWith(
      createApiKey({ sql: db.pool }, { ...keyCtx, role: "owner" }, { name: "y", scope: "write" }),
      "FORBIDDEN",
    );
    await rejectsWith(listApiKeys({ sql: db.pool }, keyCtx), "FORBIDDEN");
    // Another organization's key id is not found (not revoked).
    const other = await seedOrg(db);
    await rejectsWith(revokeApiKey({ sql: db.pool }, other, { keyId: never.apiKey.id }), "NOT_FOUND");
  });

  it("writes last_used_at at most once a minute per key", async () => {
    const ctx = await seedOrg(db);
    const { key, apiKey } = await createApiKey({ sql: db.pool }, ctx, { name: "touch", scope: "read" });
    const lastUsed = async () =>
      (await db.pool.query<{ t: Date | null }>("SELECT last_used_at AS t FROM api_keys WHERE id = $1", [apiKey.id]))
        .rows[0]!.t;
    const t0 = new Date(Date.now() + 1_000);
    await authenticateApiKey(auth, { presented: key, organizationId: ctx.organizationId, now: t0 });
    assert.equal((await lastUsed())?.getTime(), t0.getTime());
    await authenticateApiKey(auth, {
      presented: key,
      organizationId: ctx.organizationId,
      now: new Date(t0.getTime() + 30_000),
    });
    assert.equal((await lastUsed())?.getTime(), t0.getTime());
    const t2 = new Date(t0.getTime() + 61_000);
    await authenticateApiKey(auth, { presented: key, organizationId: ctx.organizationId, now: t2 });
    assert.equal((await lastUsed())?.getTime(), t2.getTime());
  });

  it("limits each key on its own: 429 with Retry-After past the budget, other keys unaffected", async () => {
    const ctx = await seedOrg(db);
    const limited = { ...auth, perMinute: 5 };
    const one = await createApiKey({ sql: db.pool }, ctx, { name: "one", scope: "read" });
    const two = await createApiKey({ sql: db.pool }, ctx, { name: "two", scope: "read" });
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 10_000);
    for (let i = 0; i < 5; i++) {
      await authenticateApiKey(limited, { presented: one.key, organizationId: ctx.organizationId, now });
    }
    await assert.rejects(
      authenticateApiKey(limited, { presented: one.key, organizationId: ctx.organizationId, now }),
      (e: unknown) => e instanceof AppError && e.code === "RATE_LIMITED" && e.retryAfterSeconds === 50,
    );
    await authenticateApiKey(limited, { presented: two.key, organizationId: ctx.organizationId, now });
  });
});
