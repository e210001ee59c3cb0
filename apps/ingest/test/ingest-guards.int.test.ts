// Accept-side guards of the ingest API, in-process against the real Redis (own key prefixes) and a
// fresh PostgreSQL database: implausible heads refused with 422, de-duplication per agent install,
// backpressure (503 + Retry-After) on a queue backlog or parked jobs, and the documented re-drive.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createLogger } from "@rpcpulse/config";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, getQueue, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { UnrecoverableError, Worker } from "bullmq";
import { parseIngestEnv } from "../src/env.js";
import { startIngest, type RunningIngest } from "../src/start-ingest.js";
import { gzipBatch, ingestJobIdOf, makeAgentBatch } from "./support/agent-batches.js";
import { issueToken, seedNode } from "./support/fleet.js";
import { postBatch } from "./support/http.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const run = promisify(execFile);
const silent = createLogger({
  name: "ingest",
  level: "silent",
  destination: new Writable({ write: (_c, _e, d) => d() }),
});

describe("ingest guards (real Redis and PostgreSQL)", () => {
  let db: TestDatabase;
  let redis: Redis;
  const prefixes: string[] = [];
  const running: RunningIngest[] = [];

  const start = async (overrides: Record<string, string> = {}) => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const ingest = await startIngest(
      parseIngestEnv({
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: prefix,
        INGEST_HOST: "127.0.0.1",
        INGEST_PORT: "0",
        INGEST_RATE_BURST: "1000",
        INGEST_RATE_PER_SECOND: "1000",
        ...overrides,
      }),
      silent,
    );
    running.push(ingest);
    return { ingest, prefix, queue: getQueue("ingest", { connection: redis, prefix }) };
  };

  before(async () => {
    db = await createTestDatabase();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
  });

  after(async () => {
    for (const ingest of running) await ingest.stop();
    await closeQueues(redis);
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  it("422 for a head outside the network's plausible range (2^53−1 on ethereum-mainnet), naming sample and field; nothing queued", async () => {
    const { ingest, queue } = await start();
    const node = await seedNode(db, undefined, "ethereum-mainnet");
    const { token } = await issueToken(db, node);
    const bogus = makeAgentBatch(1, { samples: 3, headBlock: 21_000_000 });
    bogus.samples[2]!.chain!.headBlock = Number.MAX_SAFE_INTEGER;
    const refused = await postBatch(ingest.port, { token, body: gzipBatch(bogus) });
    assert.equal(refused.status, 422, JSON.stringify(refused.json));
    assert.equal(refused.json.error?.details?.reason, "implausible_head");
    assert.equal(refused.json.error?.details?.field, "samples.2.chain.headBlock");
    assert.equal(refused.json.error?.details?.sample, 2);
    assert.match(
      refused.json.error?.message ?? "",
      /samples\.2\.chain\.headBlock: head block 9007199254740991 is outside Ethereum mainnet's plausible range 0\.\.\d+/,
    );
    assert.equal(await queue.count(), 0, "nothing of the batch queued");

    // A finalized block above the ceiling, and one above the head: refused the same way.
    const finalized = makeAgentBatch(2, { samples: 2, headBlock: 21_000_000 });
    finalized.samples[0]!.chain!.finalizedBlock = 2 ** 40;
    const aboveCeiling = await postBatch(ingest.port, { token, body: gzipBatch(finalized) });
    assert.equal(aboveCeiling.status, 422);
    assert.equal(aboveCeiling.json.error?.details?.field, "samples.0.chain.finalizedBlock");
    finalized.samples[0]!.chain!.finalizedBlock = 21_000_005;
    const aboveHead = await postBatch(ingest.port, { token, body: gzipBatch(finalized) });
    assert.equal(aboveHead.status, 422);
    assert.match(aboveHead.json.error?.message ?? "", /finalized block 21000005 is above the head block 21000000/);

    // Refused is not remembered: the same seq with plausible heads is accepted, once.
    const fixed = makeAgentBatch(1, { samples: 3, headBlock: 21_000_000 });
    assert.equal((await postBatch(ingest.port, { token, body: gzipBatch(fixed) })).status, 202);
    assert.equal(await queue.count(), 1);
    assert.ok(await queue.getJob(ingestJobIdOf(node.nodeId, fixed)));
    // A hive node at a real height is not touched by the ethereum ceiling.
    const hive = await seedNode(db);
    const hiveToken = (await issueToken(db, hive)).token;
    const hiveBatch = makeAgentBatch(1, { samples: 1, headBlock: 101_000_000 });
    assert.equal((await postBatch(ingest.port, { token: hiveToken, body: gzipBatch(hiveBatch) })).status, 202);
  });

  it("a reinstalled agent (new install id, numbering from 1) is never answered duplicate; replays of one install are", async () => {
    const { ingest, queue } = await start();
    const node = await seedNode(db);
    const { token } = await issueToken(db, node);
    const base = Date.now() - 3_600_000;
    const batch = (seq: number, installId: string | undefined, startMs: number) =>
      makeAgentBatch(seq, { samples: 2, start: new Date(startMs + seq * 20_000), ...(installId ? { installId } : {}) });
    const first = "first-install-0123456789";
    const second = "second-install-abcdefghij";
    for (let seq = 1; seq <= 3; seq++) {
      const reply = await postBatch(ingest.port, { token, body: gzipBatch(batch(seq, first, base)) });
      assert.equal(reply.json.status, "accepted");
    }
    const replay = await postBatch(ingest.port, { token, body: gzipBatch(batch(2, first, base)) });
    assert.equal(replay.status, 200);
    assert.equal(replay.json.status, "duplicate");
    // State directory lost: a new install id, batchSeq 1 again, later samples.
    for (let seq = 1; seq <= 3; seq++) {
      const reply = await postBatch(ingest.port, { token, body: gzipBatch(batch(seq, second, base + 600_000)) });
      assert.equal(reply.status, 202, `seq ${seq} of the new install`);
      assert.equal(reply.json.status, "accepted");
    }
    assert.equal(await queue.count(), 6);
    for (let seq = 1; seq <= 3; seq++) {
      assert.ok(await queue.getJob(ingestJobIdOf(node.nodeId, batch(seq, second, base + 600_000))));
    }
    // An agent without installId (older version): a replay is still a duplicate, and a reinstall
    // (numbering from 1 again, new sample times) is not.
    const legacy = await postBatch(ingest.port, { token, body: gzipBatch(batch(1, undefined, base)) });
    assert.equal(legacy.json.status, "accepted");
    assert.equal(
      (await postBatch(ingest.port, { token, body: gzipBatch(batch(1, undefined, base)) })).json.status,
      "duplicate",
    );
    const reinstalled = await postBatch(ingest.port, { token, body: gzipBatch(batch(1, undefined, base + 900_000)) });
    assert.equal(reinstalled.json.status, "accepted");
    assert.equal(await queue.count(), 8);
  });

  it("503 + Retry-After once the backlog passes its bound; the batch is not queued and lands after the backlog drains", async () => {
    const { ingest, queue } = await start({
      INGEST_MAX_BACKLOG_JOBS: "3",
      INGEST_LOAD_CHECK_INTERVAL_MS: "0",
      INGEST_BACKPRESSURE_RETRY_AFTER_S: "42",
    });
    const node = await seedNode(db);
    const { token } = await issueToken(db, node);
    for (let seq = 1; seq <= 3; seq++) {
      assert.equal(
        (await postBatch(ingest.port, { token, body: gzipBatch(makeAgentBatch(seq, { samples: 1 })) })).status,
        202,
      );
    }
    const pushedBack = await postBatch(ingest.port, { token, body: gzipBatch(makeAgentBatch(4, { samples: 1 })) });
    assert.equal(pushedBack.status, 503);
    assert.equal(pushedBack.headers["retry-after"], "42");
    assert.equal(pushedBack.json.error?.details?.reason, "queue_backlog");
    assert.equal(pushedBack.json.error?.details?.count, 3);
    assert.equal(await queue.count(), 3);
    // The worker catches up (here: the jobs are taken off the queue), and the agent's retry lands.
    // BullMQ does not close a connection it was handed: this test does.
    const drainRedis = redis.duplicate();
    const drain = new Worker("ingest", async () => "written", { connection: drainRedis, prefix: queue.opts.prefix });
    try {
      const deadline = Date.now() + 10_000;
      while ((await queue.count()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await drain.close();
      await drainRedis.quit();
    }
    assert.equal(
      (await postBatch(ingest.port, { token, body: gzipBatch(makeAgentBatch(4, { samples: 1 })) })).status,
      202,
    );
  });

  it("parked jobs are kept (never deleted), push back past their bound, and `npm run ingest:redrive` puts them back", async () => {
    const { ingest, queue, prefix } = await start({ INGEST_MAX_PARKED_JOBS: "2", INGEST_LOAD_CHECK_INTERVAL_MS: "0" });
    const node = await seedNode(db);
    const { token } = await issueToken(db, node);
    const batches = [1, 2].map((seq) => makeAgentBatch(seq, { samples: 1 }));
    for (const b of batches) assert.equal((await postBatch(ingest.port, { token, body: gzipBatch(b) })).status, 202);
    // A consumer whose every attempt fails for good: both jobs end in the failed set (parked).
    const failingRedis = redis.duplicate();
    const failing = new Worker(
      "ingest",
      async () => {
        throw new UnrecoverableError("simulated: a bug in the writer");
      },
      { connection: failingRedis, prefix },
    );
    try {
      const deadline = Date.now() + 10_000;
      while ((await queue.getFailedCount()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await failing.close();
      await failingRedis.quit();
    }
    assert.equal(await queue.getFailedCount(), 2, "parked, not deleted");
    const refused = await postBatch(ingest.port, { token, body: gzipBatch(makeAgentBatch(3, { samples: 1 })) });
    assert.equal(refused.status, 503);
    assert.equal(refused.json.error?.details?.reason, "queue_parked");

    const env = { ...process.env, REDIS_URL: SHARED_REDIS_URL, QUEUE_PREFIX: prefix, LOG_LEVEL: "silent" };
    const dry = await run("npm", ["run", "--silent", "ingest:redrive", "--", "--dry-run"], { cwd: REPO, env });
    assert.match(dry.stdout, /0 waiting or retrying, 2 parked/);
    assert.match(dry.stdout, /simulated: a bug in the writer/);
    assert.ok(dry.stdout.includes(ingestJobIdOf(node.nodeId, batches[0]!)), dry.stdout);
    assert.equal(await queue.getFailedCount(), 2, "a dry run moves nothing");
    const moved = await run("npm", ["run", "--silent", "ingest:redrive"], { cwd: REPO, env });
    assert.match(moved.stdout, /re-driven: 2 job\(s\)/);
    assert.equal(await queue.getFailedCount(), 0);
    const back = await queue.getJob(ingestJobIdOf(node.nodeId, batches[0]!));
    assert.equal(await back?.getState(), "waiting");
    assert.equal(back?.attemptsMade, 0, "a fresh retry schedule");
    assert.equal(
      (await postBatch(ingest.port, { token, body: gzipBatch(makeAgentBatch(3, { samples: 1 })) })).status,
      202,
    );
  });
});
