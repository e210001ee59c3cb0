// Agent token lifecycle against a fresh PostgreSQL database: issue, verify, rotate with overlap,
// revoke, lastUsedAt throttling, tenant scoping, and no plaintext anywhere in the database.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { AppError } from "@rpcpulse/config";
import { createTestDatabase, createTestNode, createTestOrg, waitFor, type TestDatabase } from "@rpcpulse/db/testing";
import { createRedisConnection, publishAgentTokenChange, readAgentTokenChangeMark } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import {
  createAgentToken,
  createAgentTokenVerifier,
  deleteNode,
  listAgentTokens,
  parseAgentToken,
  revokeAgentToken,
  rotateAgentToken,
} from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";

async function seedOrgNode(db: TestDatabase) {
  const org = await createTestOrg(db);
  const node = await createTestNode(db, { organizationId: org.id, name: "n1" });
  const ctx: ServiceContext = { userId: "u", organizationId: org.id, organizationSlug: org.slug, role: "admin" };
  return { ctx, nodeId: node.id };
}

async function rejectsWith(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (e: unknown) => e instanceof AppError && e.code === code);
}

describe("agent tokens (real PostgreSQL)", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
    // DROP DATABASE ... WITH (FORCE) at the end terminates idle sessions; that is expected.
    db.pool.on("error", () => undefined);
  });
  after(async () => {
    await db.drop();
  });

  it("issues rpa_<prefix>_<secret> with 32 random bytes, stores only a SHA-256 of the secret", async () => {
    const { ctx, nodeId } = await seedOrgNode(db);
    const issued = await createAgentToken({ sql: db.pool }, ctx, { nodeId });
    const parts = parseAgentToken(issued.token);
    assert.ok(parts, issued.token.replace(/_[^_]+$/, "_…"));
    assert.equal(Buffer.from(parts.secret, "base64url").length, 32);
    // Every text value of every table: neither the token nor its secret appears anywhere.
    const tables = await db.pool.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    let scanned = 0;
    for (const { table_name } of tables.rows) {
      const { rows } = await db.pool.query<{ t: string }>(`SELECT t::text AS t FROM "${table_name}" t`);
      for (const row of rows) {
        scanned++;
        assert.equal(row.t.includes(parts.secret), false, `secret found in ${table_name}`);
      }
    }
    assert.ok(scanned > 0);
    const stored = await db.pool.query<{ secret_hash: string; prefix: string }>(
      "SELECT secret_hash, prefix FROM agent_tokens WHERE id = $1",
      [issued.record.id],
    );
    assert.match(stored.rows[0]!.secret_hash, /^sha256:[0-9a-f]{64}$/);
    assert.equal(stored.rows[0]!.prefix, parts.prefix);
    // Listing shows metadata only.
    const listed = await listAgentTokens({ sql: db.pool }, ctx, { nodeId });
    assert.equal(listed.length, 1);
    assert.equal(JSON.stringify(listed).includes("sha256"), false);
  });

  it("verifies the token and refuses a wrong secret or an unknown prefix", async () => {
    const { ctx, nodeId } = await seedOrgNode(db);
    const issued = await createAgentToken({ sql: db.pool }, ctx, { nodeId });
    const verifier = createAgentTokenVerifier({ sql: db.pool });
    const identity = await verifier.verify(issued.token);
    assert.equal(identity.nodeId, nodeId);
    assert.equal(identity.organizationId, ctx.organizationId);
    const wrong = issued.token.slice(0, -4) + (issued.token.endsWith("AAAA") ? "BBBB" : "AAAA");
    await rejectsWith(verifier.verify(wrong), "UNAUTHENTICATED");
    await rejectsWith(verifier.verify(`rpa_${"f".repeat(16)}_${"x".repeat(43)}`), "UNAUTHENTICATED");
  });

  it("rotation keeps the old token valid until the end of the overlap, then only the new one works", async () => {
    const { ctx, nodeId } = await seedOrgNode(db);
    const old = await createAgentToken({ sql: db.pool }, ctx, { nodeId });
    let clock = Date.now();
    const verifier = createAgentTokenVerifier({ sql: db.pool }, { ttlMs: 0, now: () => clock });
    const rotated = await rotateAgentToken({ sql: db.pool }, ctx, {
      nodeId,
      overlapMs: 3_600_000,
      now: new Date(clock),
    });
    assert.equal(rotated.expiringPrefixes, 1);
    assert.equal((await verifier.verify(old.token)).nodeId, nodeId);
    assert.equal((await verifier.verify(rotated.token)).nodeId, nodeId);
    clock += 3_600_000 + 1;
    await rejectsWith(verifier.verify(old.token), "UNAUTHENTICATED");
    assert.equal((await verifier.verify(rotated.token)).nodeId, nodeId);
  });

  it("revocation: refused at once after invalidate(), and within the cache TTL without it", async () => {
    const { ctx, nodeId } = await seedOrgNode(db);
    const issued = await createAgentToken({ sql: db.pool }, ctx, { nodeId });
    let clock = Date.now();
    const verifier = createAgentTokenVerifier({ sql: db.pool }, { ttlMs: 30_000, now: () => clock });
    const notified: string[] = [];
    await verifier.verify(issued.token);
    await revokeAgentToken({ sql: db.pool, notifyChanged: async (p) => void notified.push(p) }, ctx, {
      tokenId: issued.record.id,
    });
    assert.deepEqual(notified, [parseAgentToken(issued.token)!.prefix]);
    // Without the notification the cached entry lives until the TTL (≤ 30 s) ...
    clock += 29_000;
    await verifier.verify(issued.token);
    clock += 1_001;
    await rejectsWith(verifier.verify(issued.token), "UNAUTHENTICATED");
    // ... and with it, at once.
    const second = await createAgentToken({ sql: db.pool }, ctx, { nodeId });
    await verifier.verify(second.token);
    await revokeAgentToken({ sql: db.pool, notifyChanged: async (p) => verifier.invalidate(p) }, ctx, {
      tokenId: second.record.id,
    });
    await rejectsWith(verifier.verify(second.token), "UNAUTHENTICATED");
  });

  it("writes lastUsedAt at most once a minute", async () => {
    const { ctx, nodeId } = await seedOrgNode(db);
    const issued = await createAgentToken({ sql: db.pool }, ctx, { nodeId });
    const t0 = Date.now();
    let clock = t0;
    const verifier = createAgentTokenVerifier({ sql: db.pool }, { ttlMs: 0, now: () => clock });
    const lastUsed = async () => {
      const { rows } = await db.pool.query<{ t: Date | null }>(
        "SELECT last_used_at AS t FROM agent_tokens WHERE id = $1",
        [issued.record.id],
      );
      return rows[0]!.t?.getTime() ?? null;
    };
    // The write is fire-and-forget: wait for the value it must reach (a loaded machine takes longer than 50 ms).
    const lastUsedBecomes = (expected: number) =>
      waitFor(`last_used_at = ${expected}`, async () => (await lastUsed()) === expected);
    await verifier.verify(issued.token);
    await lastUsedBecomes(t0);
    clock = t0 + 30_000;
    await verifier.verify(issued.token);
    await new Promise((r) => setTimeout(r, 200)); // a write here would be wrong: give it time to show
    assert.equal(await lastUsed(), t0);
    clock = t0 + 61_000;
    await verifier.verify(issued.token);
    await lastUsedBecomes(t0 + 61_000);
  });

  it("unknown prefixes are cached apart from valid tokens: a flood evicts none and reaches the database once per prefix", async () => {
    const { ctx, nodeId } = await seedOrgNode(db);
    const valid = await Promise.all([1, 2].map(() => createAgentToken({ sql: db.pool }, ctx, { nodeId })));
    // The real pool, counted: every statement the verifier sends.
    let statements = 0;
    const counted = { query: (text: string, params?: unknown[]) => (statements++, db.pool.query(text, params)) };
    const verifier = createAgentTokenVerifier(
      { sql: counted },
      { maxEntries: 2, maxNegativeEntries: 10, lastUsedIntervalMs: 3_600_000 },
    );
    for (const t of valid) await verifier.verify(t.token);
    const afterValid = statements;
    const flood = Array.from({ length: 100 }, () => `rpa_${randomBytes(8).toString("hex")}_${"x".repeat(43)}`);
    for (const token of flood) await rejectsWith(verifier.verify(token), "UNAUTHENTICATED");
    assert.equal(statements, afterValid + 100, "one look-up per unknown prefix");
    assert.equal(verifier.negativeSize, 10);
    assert.equal(verifier.size, 2, "the valid entries are still there");
    for (const token of flood.slice(-10)) await rejectsWith(verifier.verify(token), "UNAUTHENTICATED");
    for (const t of valid) await verifier.verify(t.token);
    assert.equal(statements, afterValid + 100, "repeats and valid tokens: no database work");
    assert.equal(verifier.stats.negativeHits, 10);
    // beforeLookup runs before a look-up only, and can refuse it.
    let asked = 0;
    const refuse = () => {
      asked++;
      throw new AppError("RATE_LIMITED", "no");
    };
    await rejectsWith(verifier.verify(flood[0]!, { beforeLookup: refuse }), "RATE_LIMITED");
    await verifier.verify(valid[0]!.token, { beforeLookup: refuse });
    assert.equal(asked, 1);
    assert.equal(statements, afterValid + 100);
  });

  it("a change mark (Redis) refuses a deleted node's token at once, without invalidate() and with the database down", async () => {
    const redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    const prefix = uniquePrefix();
    try {
      const { ctx, nodeId } = await seedOrgNode(db);
      const issued = await createAgentToken({ sql: db.pool }, ctx, { nodeId });
      let down = false;
      const flaky = {
        query: (text: string, params?: unknown[]) =>
          down
            ? Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))
            : db.pool.query(text, params),
      };
      const verifier = createAgentTokenVerifier(
        { sql: flaky, readChangeMark: (p) => readAgentTokenChangeMark(redis, prefix, p) },
        { ttlMs: 0, staleIfErrorMs: 600_000, lastUsedIntervalMs: 3_600_000 },
      );
      assert.equal((await verifier.verify(issued.token)).tokenPrefix, parseAgentToken(issued.token)!.prefix);
      down = true;
      assert.equal(
        (await verifier.verify(issued.token)).nodeId,
        nodeId,
        "stale copy served while the database is down",
      );
      down = false;
      await deleteNode({ prisma: db.prisma, notifyChanged: (p) => publishAgentTokenChange(redis, prefix, p) }, ctx, {
        nodeId,
      });
      down = true;
      await rejectsWith(verifier.verify(issued.token), "UNAVAILABLE");
      down = false;
      await rejectsWith(verifier.verify(issued.token), "UNAUTHENTICATED");
    } finally {
      await deleteKeys(redis, prefix);
      await redis.quit();
    }
  });

  it("keeps organizations apart: another org cannot list, issue, rotate or revoke a node's tokens", async () => {
    const a = await seedOrgNode(db);
    const b = await seedOrgNode(db);
    const issued = await createAgentToken({ sql: db.pool }, a.ctx, { nodeId: a.nodeId });
    await rejectsWith(listAgentTokens({ sql: db.pool }, b.ctx, { nodeId: a.nodeId }), "NOT_FOUND");
    await rejectsWith(createAgentToken({ sql: db.pool }, b.ctx, { nodeId: a.nodeId }), "NOT_FOUND");
    await rejectsWith(rotateAgentToken({ sql: db.pool }, b.ctx, { nodeId: a.nodeId }), "NOT_FOUND");
    await rejectsWith(revokeAgentToken({ sql: db.pool }, b.ctx, { tokenId: issued.record.id }), "NOT_FOUND");
    await rejectsWith(
      createAgentToken({ sql: db.pool }, { ...a.ctx, role: "viewer" }, { nodeId: a.nodeId }),
      "FORBIDDEN",
    );
    const verifier = createAgentTokenVerifier({ sql: db.pool });
    assert.equal((await verifier.verify(issued.token)).organizationId, a.ctx.organizationId);
  });
});
