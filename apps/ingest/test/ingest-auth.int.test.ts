// Authentication abuse and revocation at the ingest API, in-process against the real Redis (own key
// prefixes) and PostgreSQL: unauthenticated requests limited per client address before any token
// look-up (TRUSTED_PROXIES respected), unknown tokens cached apart from valid ones, and a deleted
// node's tokens refused at once by every ingest process, even one whose PostgreSQL is unreachable.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { createLogger } from "@rpcpulse/config";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import {
  agentTokenChangeMarkKey,
  closeQueues,
  createRedisConnection,
  publishAgentTokenChange,
  type Redis,
} from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { deleteNode, generateAgentToken, rotateAgentToken } from "@rpcpulse/services/fleet";
import { parseIngestEnv } from "../src/env.js";
import { startIngest, type RunningIngest } from "../src/start-ingest.js";
import { gzipBatch, makeAgentBatch } from "./support/agent-batches.js";
import { issueToken, seedNode, type SeededNode } from "./support/fleet.js";
import { postBatch } from "./support/http.js";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy.js";

const silent = createLogger({
  name: "ingest",
  level: "silent",
  destination: new Writable({ write: (_c, _e, d) => d() }),
});
const unknownToken = () => generateAgentToken().token;

describe("ingest authentication: per-address limits, negative cache, revocation everywhere", () => {
  let db: TestDatabase;
  let redis: Redis;
  let proxy: TcpProxy;
  const prefixes: string[] = [];
  const running: RunningIngest[] = [];
  let seq = 0;
  const body = () => gzipBatch(makeAgentBatch(++seq, { samples: 1 }));

  const start = async (overrides: Record<string, string> = {}, prefix = uniquePrefix()) => {
    if (!prefixes.includes(prefix)) prefixes.push(prefix);
    const ingest = await startIngest(
      parseIngestEnv({
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: prefix,
        INGEST_HOST: "127.0.0.1",
        INGEST_PORT: "0",
        INGEST_RATE_BURST: "100000",
        INGEST_RATE_PER_SECOND: "100000",
        ...overrides,
      }),
      silent,
    );
    running.push(ingest);
    return ingest;
  };
  const newNode = async (): Promise<SeededNode & { token: string; tokenId: string }> => {
    const node = await seedNode(db);
    return { ...node, ...(await issueToken(db, node)) };
  };

  before(async () => {
    db = await createTestDatabase();
    db.pool.on("error", () => undefined);
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    proxy = await startTcpProxy(Number(new URL(db.url).port || 5432));
  });

  after(async () => {
    for (const ingest of running) await ingest.stop();
    await proxy?.close();
    await closeQueues(redis);
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  it("unauthenticated requests are limited per address before any token look-up; valid cached tokens are not", async () => {
    const ingest = await start({ INGEST_UNAUTH_BURST: "5", INGEST_UNAUTH_RATE_PER_SECOND: "0.1" });
    const valid = await newNode();
    assert.equal((await postBatch(ingest.port, { token: valid.token, body: body() })).status, 202);
    const lookups = ingest.stats().tokenLookups;
    for (let i = 0; i < 5; i++) {
      assert.equal((await postBatch(ingest.port, { token: unknownToken(), body: body() })).status, 401);
    }
    assert.equal(ingest.stats().tokenLookups, lookups + 5, "each unknown prefix was looked up once");
    for (let i = 0; i < 20; i++) {
      const limited = await postBatch(ingest.port, { token: unknownToken(), body: body() });
      assert.equal(limited.status, 429);
      assert.equal(limited.json.error?.details?.reason, "unauthenticated_rate");
      assert.ok(Number(limited.headers["retry-after"]) >= 1);
    }
    assert.equal(ingest.stats().tokenLookups, lookups + 5, "no database look-up once the address is limited");
    // Missing and malformed tokens count too; a forged X-Forwarded-For is ignored without TRUSTED_PROXIES.
    assert.equal((await postBatch(ingest.port, { body: body() })).status, 429);
    assert.equal((await postBatch(ingest.port, { token: "rpa_nope", body: body() })).status, 429);
    const forged = await postBatch(ingest.port, {
      token: unknownToken(),
      body: body(),
      headers: { "x-forwarded-for": "203.0.113.50" },
    });
    assert.equal(forged.status, 429);
    // The valid token, cached, keeps working from the same address: it costs no look-up.
    assert.equal((await postBatch(ingest.port, { token: valid.token, body: body() })).status, 202);
    // A token this process has not seen needs a look-up, which the spent address may not have yet.
    const cold = await newNode();
    assert.equal((await postBatch(ingest.port, { token: cold.token, body: body() })).status, 429);
    assert.equal(ingest.stats().tokenLookups, lookups + 5);
  });

  it("with TRUSTED_PROXIES the client is the right-most untrusted X-Forwarded-For hop; IPv6 clients by /64", async () => {
    const ingest = await start({
      INGEST_UNAUTH_BURST: "3",
      INGEST_UNAUTH_RATE_PER_SECOND: "0.1",
      TRUSTED_PROXIES: "127.0.0.1/32, 10.0.0.0/8",
    });
    const post = (xff: string) =>
      postBatch(ingest.port, { token: unknownToken(), body: body(), headers: { "x-forwarded-for": xff } });
    for (let i = 0; i < 3; i++) assert.equal((await post("198.51.100.7")).status, 401);
    assert.equal((await post("198.51.100.7")).status, 429);
    assert.equal((await post("198.51.100.8")).status, 401, "another client behind the proxy has its own budget");
    assert.equal((await post("198.51.100.7, 10.1.2.3")).status, 429, "trusted hops are skipped");
    assert.equal((await post("198.51.100.9, 198.51.100.7")).status, 429, "hops left of the client's are its own claim");
    for (let i = 0; i < 3; i++) assert.equal((await post("2001:db8:1:2::1")).status, 401);
    assert.equal((await post("2001:db8:1:2:ffff::9")).status, 429, "same /64");
    assert.equal((await post("2001:db8:1:3::1")).status, 401, "another /64");
  });

  it("unknown tokens are cached apart, bounded: a flood neither evicts valid tokens nor reaches the database twice", async () => {
    const ingest = await start({ INGEST_UNAUTH_BURST: "100000", INGEST_TOKEN_NEGATIVE_MAX: "50" });
    const valid = await Promise.all([newNode(), newNode(), newNode()]);
    for (const node of valid)
      assert.equal((await postBatch(ingest.port, { token: node.token, body: body() })).status, 202);
    const before = ingest.stats();
    const flood = Array.from({ length: 300 }, unknownToken);
    for (const token of flood) assert.equal((await postBatch(ingest.port, { token, body: body() })).status, 401);
    const afterFlood = ingest.stats();
    assert.equal(afterFlood.tokenLookups, before.tokenLookups + 300);
    assert.equal(afterFlood.negativeCached, 50, "the negative cache keeps its own bound");
    // The most recent unknown tokens are answered from the negative cache, without the database.
    for (const token of flood.slice(-20))
      assert.equal((await postBatch(ingest.port, { token, body: body() })).status, 401);
    assert.equal(ingest.stats().tokenLookups, afterFlood.tokenLookups);
    assert.equal(ingest.stats().negativeHits, afterFlood.negativeHits + 20);
    // The valid tokens are still cached: no look-up for them.
    for (const node of valid)
      assert.equal((await postBatch(ingest.port, { token: node.token, body: body() })).status, 202);
    assert.equal(ingest.stats().tokenLookups, afterFlood.tokenLookups);
  });

  it("deleting a node: both ingest instances refuse its token on the very next request; rotation with no overlap too", async () => {
    const prefix = uniquePrefix();
    const a = await start({}, prefix);
    const b = await start({}, prefix);
    const deps = { prisma: db.prisma, notifyChanged: (p: string) => publishAgentTokenChange(redis, prefix, p) };
    const node = await newNode();
    const keep = await newNode();
    for (const ingest of [a, b]) {
      assert.equal((await postBatch(ingest.port, { token: node.token, body: body() })).status, 202);
      assert.equal((await postBatch(ingest.port, { token: keep.token, body: body() })).status, 202);
    }
    await deleteNode(deps, node.ctx, { nodeId: node.nodeId });
    const [fromA, fromB] = await Promise.all([
      postBatch(a.port, { token: node.token, body: body() }),
      postBatch(b.port, { token: node.token, body: body() }),
    ]);
    assert.equal(fromA.status, 401);
    assert.equal(fromB.status, 401);
    for (const ingest of [a, b]) {
      assert.equal(
        (await postBatch(ingest.port, { token: keep.token, body: body() })).status,
        202,
        "others unaffected",
      );
    }
    const rotated = await rotateAgentToken({ sql: db.pool, notifyChanged: deps.notifyChanged }, keep.ctx, {
      nodeId: keep.nodeId,
      overlapMs: 0,
    });
    for (const ingest of [a, b]) {
      assert.equal((await postBatch(ingest.port, { token: keep.token, body: body() })).status, 401);
      assert.equal((await postBatch(ingest.port, { token: rotated.token, body: body() })).status, 202);
    }
    // A process that missed the pub/sub message (only the change mark written) refuses at once too.
    const quiet = await newNode();
    for (const ingest of [a, b]) {
      assert.equal((await postBatch(ingest.port, { token: quiet.token, body: body() })).status, 202);
    }
    await deleteNode(
      {
        prisma: db.prisma,
        notifyChanged: async (p) =>
          void (await redis.set(agentTokenChangeMarkKey(prefix, p), "mark-only", "PX", 60_000)),
      },
      quiet.ctx,
      { nodeId: quiet.nodeId },
    );
    for (const ingest of [a, b]) {
      assert.equal((await postBatch(ingest.port, { token: quiet.token, body: body() })).status, 401);
    }
  });

  it("an ingest process whose PostgreSQL is unreachable does not serve a deleted node's token from its stale cache", async () => {
    const prefix = uniquePrefix();
    const viaProxy = db.url.replace(/:(\d+)\//, `:${proxy.port}/`);
    const ingest = await start({ DATABASE_URL: viaProxy, INGEST_TOKEN_CACHE_TTL_MS: "0" }, prefix);
    const doomed = await newNode();
    const other = await newNode();
    for (const node of [doomed, other]) {
      assert.equal((await postBatch(ingest.port, { token: node.token, body: body() })).status, 202);
    }
    proxy.cut();
    try {
      // PostgreSQL away for this process: unchanged tokens are still served from the cache ...
      assert.equal((await postBatch(ingest.port, { token: other.token, body: body() })).status, 202);
      await deleteNode(
        { prisma: db.prisma, notifyChanged: (p) => publishAgentTokenChange(redis, prefix, p) },
        doomed.ctx,
        { nodeId: doomed.nodeId },
      );
      // ... a deleted node's token is not: the change mark says the cached copy is out of date.
      const refused = await postBatch(ingest.port, { token: doomed.token, body: body() });
      assert.equal(refused.status, 503, JSON.stringify(refused.json));
      assert.equal((await postBatch(ingest.port, { token: other.token, body: body() })).status, 202);
    } finally {
      proxy.restore();
    }
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && status !== 401) {
      status = (await postBatch(ingest.port, { token: doomed.token, body: body() })).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 401, "once PostgreSQL is back: unknown token");
  });
});
