// The ingest API in-process against the real Redis (own key prefix) and a fresh PostgreSQL
// database: every answer of POST /v1/ingest, with the queue checked directly.
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { once } from "node:events";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { createGzip, gzipSync } from "node:zlib";
import { createLogger } from "@rpcpulse/config";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, getQueue, type Redis } from "@rpcpulse/queue";
import { parseIngestEnv } from "../src/env.js";
import { startIngest, type RunningIngest } from "../src/start-ingest.js";
import { gzipBatch, ingestJobIdOf, makeAgentBatch } from "./support/agent-batches.js";
import { issueToken, seedNode, type SeededNode } from "./support/fleet.js";
import { postBatch } from "./support/http.js";
import { deleteKeys, freePort, PrivateRedis, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";

function captureLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, log: createLogger({ name: "ingest", level: "debug", destination }) };
}

/** gzip of `totalBytes` zeros, streamed (never holds the inflated data). */
async function gzipOfZeros(totalBytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on("data", (c: Buffer) => out.push(c));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let sent = 0; sent < totalBytes; sent += zeros.length) {
    if (!gzip.write(zeros)) await once(gzip, "drain");
  }
  gzip.end();
  await once(gzip, "end");
  return Buffer.concat(out);
}

describe("POST /v1/ingest against real Redis and PostgreSQL", () => {
  let db: TestDatabase;
  let redis: Redis;
  let prefix: string;
  let ingest: RunningIngest;
  let nodeA: SeededNode;
  const captured = captureLogger();
  const tokens: string[] = [];

  const env = (overrides: Record<string, string> = {}) =>
    parseIngestEnv({
      DATABASE_URL: db.url,
      REDIS_URL: SHARED_REDIS_URL,
      QUEUE_PREFIX: prefix,
      INGEST_HOST: "127.0.0.1",
      INGEST_PORT: "0",
      INGEST_RATE_PER_SECOND: "1",
      INGEST_RATE_BURST: "30",
      ...overrides,
    });

  const newToken = async (node: SeededNode) => {
    const issued = await issueToken(db, node);
    tokens.push(issued.token);
    return issued;
  };

  before(async () => {
    db = await createTestDatabase();
    prefix = uniquePrefix();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    nodeA = await seedNode(db);
    ingest = await startIngest(env(), captured.log);
  });

  after(async () => {
    await ingest?.stop();
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  it("queues a batch once (202), answers a replay 200 duplicate, and the job carries the rows", async () => {
    const { token } = await newToken(nodeA);
    const batch1 = makeAgentBatch(1, { samples: 10, remoteIps: 3 });
    const body = gzipBatch(batch1);
    const first = await postBatch(ingest.port, { token, body });
    assert.equal(first.status, 202, JSON.stringify(first.json));
    assert.equal(first.json.status, "accepted");
    assert.equal(first.json.samples, 10);
    const replay = await postBatch(ingest.port, { token, body });
    assert.equal(replay.status, 200);
    assert.equal(replay.json.status, "duplicate");
    const job = await getQueue("ingest", { connection: redis, prefix }).getJob(ingestJobIdOf(nodeA.nodeId, batch1));
    assert.ok(job, "job queued under its idempotency key");
    assert.equal(job.data.organizationId, nodeA.organizationId);
    assert.equal(job.data.samples.time.length, 10);
    assert.equal(job.data.remoteIps.ip.length, 30);
    assert.equal(await getQueue("ingest", { connection: redis, prefix }).count(), 1);
  });

  it("accepts an identity (uncompressed) body too", async () => {
    const { token } = await newToken(nodeA);
    const body = Buffer.from(JSON.stringify(makeAgentBatch(2, { samples: 2 })));
    const reply = await postBatch(ingest.port, { token, body, gzip: false });
    assert.equal(reply.status, 202, JSON.stringify(reply.json));
  });

  it("401 without a token, with a malformed one, and with an unknown one", async () => {
    const body = gzipBatch(makeAgentBatch(3));
    for (const token of [undefined, "not-a-token", `rpa_0123456789abcdef_${"A".repeat(43)}`]) {
      const reply = await postBatch(ingest.port, { ...(token ? { token } : {}), body });
      assert.equal(reply.status, 401, `token ${token}`);
      assert.equal(reply.json.error?.code, "UNAUTHENTICATED");
    }
  });

  it("413 when Content-Length or the streamed bytes pass 1 MiB, before the body is read", async () => {
    const { token } = await newToken(nodeA);
    const big = Buffer.alloc(1024 * 1024 + 1, 1);
    const declared = await postBatch(ingest.port, { token, body: big });
    assert.equal(declared.status, 413);
    assert.equal(declared.json.error?.code, "PAYLOAD_TOO_LARGE");
    // Incompressible data: its gzip is > 1 MiB, sent without Content-Length.
    const gz = gzipSync(randomBytes(1200 * 1024));
    const parts = Array.from({ length: Math.ceil(gz.length / 65_536) }, (_, i) =>
      gz.subarray(i * 65_536, (i + 1) * 65_536),
    );
    const streamed = await postBatch(ingest.port, { token, body: parts, chunked: true });
    assert.equal(streamed.status, 413);
    assert.match(streamed.json.error?.message ?? "", /Body larger than 1048576 bytes/);
    const identity = await postBatch(ingest.port, { token, body: parts, chunked: true, gzip: false });
    assert.equal(identity.status, 413);
  });

  it("refuses a gzip bomb (1 GiB of zeros in < 1 MiB) after inflating at most the cap, with bounded memory", async () => {
    const { token } = await newToken(nodeA);
    const bomb = await gzipOfZeros(1024 * 1024 * 1024);
    assert.ok(bomb.length < 1024 * 1024, `bomb is ${bomb.length} bytes`);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const reply = await postBatch(ingest.port, { token, body: bomb });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    assert.equal(reply.status, 413);
    assert.match(reply.json.error?.message ?? "", /inflates to more than 8388608 bytes/);
    const growthMiB = (peak - rssBefore) / 2 ** 20;
    assert.ok(growthMiB < 48, `RSS grew ${growthMiB.toFixed(1)} MiB`);
  });

  it("400 with a reason naming the path for a schema error, bad JSON and bad gzip", async () => {
    const { token } = await newToken(nodeA);
    const batch = makeAgentBatch(4, { samples: 2 }) as unknown as {
      samples: { tcp: { states: { established: unknown } } }[];
    };
    batch.samples[1]!.tcp.states.established = -5;
    const schema = await postBatch(ingest.port, { token, body: gzipBatch(batch) });
    assert.equal(schema.status, 400);
    assert.equal(schema.json.error?.code, "VALIDATION");
    assert.match(schema.json.error?.message ?? "", /samples\.1\.tcp\.states\.established/);
    const json = await postBatch(ingest.port, { token, body: gzipSync(Buffer.from("{not json")) });
    assert.equal(json.status, 400);
    assert.equal(json.json.error?.details?.reason, "invalid_json");
    const gzip = await postBatch(ingest.port, { token, body: Buffer.from("definitely not gzip") });
    assert.equal(gzip.status, 400);
    assert.equal(gzip.json.error?.details?.reason, "invalid_gzip");
  });

  it("415 for another content type or encoding", async () => {
    const { token } = await newToken(nodeA);
    const body = gzipBatch(makeAgentBatch(5));
    assert.equal((await postBatch(ingest.port, { token, body, contentType: "text/plain" })).status, 415);
    assert.equal((await postBatch(ingest.port, { token, body, headers: { "content-encoding": "br" } })).status, 415);
  });

  it("422 clock_skew when the agent clock is off by more than the window, and for samples in the future", async () => {
    const { token } = await newToken(nodeA);
    const skewed = makeAgentBatch(6, { sentAt: new Date(Date.now() + 20 * 60_000) });
    const reply = await postBatch(ingest.port, { token, body: gzipBatch(skewed) });
    assert.equal(reply.status, 422);
    assert.equal(reply.json.error?.details?.reason, "clock_skew");
    const future = makeAgentBatch(7, { start: new Date(Date.now() + 30 * 60_000) });
    const ahead = await postBatch(ingest.port, { token, body: gzipBatch(future) });
    assert.equal(ahead.status, 422);
    assert.equal(ahead.json.error?.details?.reason, "clock_skew");
    // Within the window: accepted, skew carried into the job.
    const slight = makeAgentBatch(8, { sentAt: new Date(Date.now() + 90_000) });
    const ok = await postBatch(ingest.port, { token, body: gzipBatch(slight) });
    assert.equal(ok.status, 202);
    assert.ok(Math.abs((ok.json.clockSkewMs as number) - 90_000) < 5_000);
  });

  it("accepts a batch sealed before a long outage when the attempt is stamped now (X-RPCPulse-Sent-At)", async () => {
    const { token } = await newToken(nodeA);
    const sealedAt = new Date(Date.now() - 30 * 60_000);
    const spooled = makeAgentBatch(9, { sentAt: sealedAt, start: new Date(sealedAt.getTime() - 10_000) });
    // Without the attempt stamp the seal time looks like a 30-minute skew ...
    const bare = await postBatch(ingest.port, { token, body: gzipBatch(spooled) });
    assert.equal(bare.status, 422);
    assert.equal(bare.json.error?.details?.reason, "clock_skew");
    // ... with it (what the agent sends on every attempt) the replay lands, skew judged on the attempt.
    const stamped = await postBatch(ingest.port, {
      token,
      body: gzipBatch(spooled),
      headers: { "x-rpcpulse-sent-at": new Date().toISOString() },
    });
    assert.equal(stamped.status, 202);
    assert.ok(Math.abs(stamped.json.clockSkewMs as number) < 5_000);
    // A stamp that is itself skewed is still refused.
    const skewedStamp = await postBatch(ingest.port, {
      token,
      body: gzipBatch(makeAgentBatch(10)),
      headers: { "x-rpcpulse-sent-at": new Date(Date.now() + 20 * 60_000).toISOString() },
    });
    assert.equal(skewedStamp.status, 422);
  });

  it("429 with Retry-After once a token's bucket is empty; other tokens are unaffected", async () => {
    const { token } = await newToken(nodeA);
    const other = await newToken(nodeA);
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 35; i++) {
      const reply = await postBatch(ingest.port, { token, body: gzipBatch(makeAgentBatch(100 + i, { samples: 1 })) });
      statuses.push(reply.status);
      if (reply.status === 429) retryAfter = String(reply.headers["retry-after"]);
    }
    assert.ok(statuses.filter((s) => s === 202).length >= 30, statuses.join(","));
    assert.ok(statuses.includes(429), statuses.join(","));
    assert.ok(Number(retryAfter) >= 1);
    const fine = await postBatch(ingest.port, {
      token: other.token,
      body: gzipBatch(makeAgentBatch(200, { samples: 1 })),
    });
    assert.equal(fine.status, 202);
  });

  it("tenant isolation: a token of org A naming a node of org B is refused and nothing is queued for B", async () => {
    const { token } = await newToken(nodeA);
    const nodeB = await seedNode(db);
    const before = await getQueue("ingest", { connection: redis, prefix }).count();
    const foreign = makeAgentBatch(300, { nodeId: nodeB.nodeId });
    const reply = await postBatch(ingest.port, { token, body: gzipBatch(foreign) });
    assert.equal(reply.status, 403);
    assert.equal(await getQueue("ingest", { connection: redis, prefix }).count(), before);
    assert.equal(
      await getQueue("ingest", { connection: redis, prefix }).getJob(ingestJobIdOf(nodeB.nodeId, foreign)),
      undefined,
    );
    // Naming its own node is fine.
    const ownBatch = makeAgentBatch(301, { nodeId: nodeA.nodeId });
    const own = await postBatch(ingest.port, { token, body: gzipBatch(ownBatch) });
    assert.equal(own.status, 202);
    assert.ok(await getQueue("ingest", { connection: redis, prefix }).getJob(ingestJobIdOf(nodeA.nodeId, ownBatch)));
    // A random uuid as nodeId: refused as well.
    const random = await postBatch(ingest.port, {
      token,
      body: gzipBatch(makeAgentBatch(302, { nodeId: randomUUID() })),
    });
    assert.equal(random.status, 403);
  });

  it("answers 503 with Retry-After while its Redis is down, and 202 again once it is back", async () => {
    const privateRedis = new PrivateRedis(await freePort());
    await privateRedis.start();
    const own = await startIngest(env({ REDIS_URL: privateRedis.url }), captured.log);
    try {
      const { token } = await newToken(nodeA);
      const ok = await postBatch(own.port, { token, body: gzipBatch(makeAgentBatch(400, { samples: 1 })) });
      assert.equal(ok.status, 202);
      await privateRedis.stop();
      const down = await postBatch(own.port, { token, body: gzipBatch(makeAgentBatch(401, { samples: 1 })) });
      assert.equal(down.status, 503);
      assert.ok(Number(down.headers["retry-after"]) >= 1);
      const health = await fetch(`http://127.0.0.1:${own.port}/healthz`);
      assert.equal(health.status, 503);
      await privateRedis.start();
      const deadline = Date.now() + 10_000;
      let back = 0;
      while (Date.now() < deadline) {
        back = (await postBatch(own.port, { token, body: gzipBatch(makeAgentBatch(401, { samples: 1 })) })).status;
        if (back === 202) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(back, 202);
    } finally {
      await own.stop();
      await privateRedis.destroy();
    }
  });

  it("serves /healthz and never writes a token to its log", async () => {
    const health = await fetch(`http://127.0.0.1:${ingest.port}/healthz`);
    assert.equal(health.status, 200);
    const log = captured.lines.join("");
    assert.ok(captured.lines.length > 10, "the tests above logged requests");
    for (const token of tokens) {
      const [, tokenPrefix, secret] = /^rpa_([0-9a-f]{16})_(.+)$/.exec(token)!;
      assert.equal(log.includes(secret!), false, "secret in the log");
      assert.equal(log.includes(`rpa_${tokenPrefix}_`), false, "token in the log");
    }
  });
});
