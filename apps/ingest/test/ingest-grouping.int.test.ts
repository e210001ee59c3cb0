// Queue grouping of the ingest API, in-process against the real Redis (own key prefixes), a fresh
// PostgreSQL database and the real worker process: concurrent agent requests land as fewer queue
// jobs and every sample is stored exactly once; a failed add of a group answers every request in
// it 503 and marks none of them seen (the agents' retries are accepted).
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createLogger } from "@rpcpulse/config";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import {
  closeQueues,
  createRedisConnection,
  getQueue,
  isGroupJob,
  parseGroupPayloads,
  type Redis,
} from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { parseIngestEnv } from "../src/env.js";
import { startIngest, type RunningIngest } from "../src/start-ingest.js";
import { gzipBatch, makeAgentBatch } from "./support/agent-batches.js";
import { issueToken, seedNode } from "./support/fleet.js";
import { postBatch } from "./support/http.js";

const workerDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../worker");
const silent = createLogger({
  name: "ingest",
  level: "silent",
  destination: new Writable({ write: (_c, _e, d) => d() }),
});

describe("ingest queue grouping (real Redis, PostgreSQL and worker process)", () => {
  let db: TestDatabase;
  let redis: Redis;
  const prefixes: string[] = [];
  const running: RunningIngest[] = [];
  let worker: ChildProcess | undefined;

  const start = async () => {
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
        // A wide window so that every request of a burst lands in it, even on a loaded machine.
        INGEST_QUEUE_GROUP_MS: "500",
        INGEST_QUEUE_GROUP_MIN_RATE: "0",
      }),
      silent,
    );
    running.push(ingest);
    return { ingest, prefix, queue: getQueue("ingest", { connection: redis, prefix }) };
  };

  const count = async (sql: string, params: unknown[] = []) =>
    Number((await db.pool.query<{ n: string }>(sql, params)).rows[0]?.n ?? 0);

  before(async () => {
    db = await createTestDatabase();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
  });

  after(async () => {
    if (worker && worker.exitCode === null) {
      worker.kill("SIGTERM");
      await once(worker, "exit");
    }
    for (const ingest of running) await ingest.stop();
    await closeQueues(redis);
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  it("concurrent requests land as fewer jobs, and the worker stores every sample and remote IP exactly once", async () => {
    const { ingest, prefix, queue } = await start();
    const nodes = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const node = await seedNode(db);
        return { ...node, ...(await issueToken(db, node)) };
      }),
    );
    const base = Date.now() - 600_000;
    const body = (seq: number) =>
      gzipBatch(makeAgentBatch(seq, { samples: 2, remoteIps: 3, start: new Date(base + seq * 60_000) }));
    // Two batches per node, and the first node's first batch twice (a retry racing the original).
    const requests = [
      ...nodes.flatMap((n) => [1, 2].map((seq) => ({ token: n.token, seq }))),
      { ...nodes[0]!, seq: 1 },
    ];
    const replies = await Promise.all(
      requests.map((r) => postBatch(ingest.port, { token: r.token, body: body(r.seq) })),
    );
    const statuses = replies.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 202).length, 24, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 200).length, 1, "the racing copy is answered duplicate");

    const jobs = await queue.getJobs(["wait"]);
    const items = jobs.flatMap((j) =>
      isGroupJob("ingest", j.name) ? parseGroupPayloads("ingest", j.data).payloads : [j.data],
    );
    assert.ok(jobs.length < 24, `${jobs.length} jobs for 24 batches`);
    assert.equal(items.length, 24, "each batch in exactly one job");
    assert.equal(new Set(items.map((p) => `${p.nodeId}/${p.batchSeq}`)).size, 24);

    worker = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: workerDir,
      env: {
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: prefix,
        WORKER_ID: `ingest-grouping-${prefix}`,
        WORKER_HEALTH_HOST: "127.0.0.1",
        WORKER_HEALTH_PORT: "0",
        WORKER_REGISTER_SCHEDULES: "false",
        WORKER_MAINTENANCE_ENABLED: "false",
        WORKER_HEARTBEAT_INTERVAL_MS: "60000",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const ids = nodes.map((n) => n.nodeId);
    const deadline = Date.now() + 30_000;
    while ((await count("SELECT count(*) AS n FROM node_samples WHERE node_id = ANY($1::uuid[])", [ids])) < 48) {
      if (Date.now() > deadline) throw new Error("the worker did not store the 48 samples in 30 s");
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await count("SELECT count(*) AS n FROM node_samples WHERE node_id = ANY($1::uuid[])", [ids]), 48);
    assert.equal(
      await count("SELECT count(DISTINCT (node_id, time)) AS n FROM node_samples WHERE node_id = ANY($1::uuid[])", [
        ids,
      ]),
      48,
    );
    assert.equal(await count("SELECT count(*) AS n FROM node_remote_ips WHERE node_id = ANY($1::uuid[])", [ids]), 144);
    assert.equal(await count("SELECT count(*) AS n FROM node_latest WHERE node_id = ANY($1::uuid[])", [ids]), 12);
    assert.equal((await queue.getJobCounts("completed")).completed, jobs.length);
  });

  it("a failed add answers every request of the group 503 and marks none seen: the retries are accepted", async () => {
    const { ingest, prefix, queue } = await start();
    const nodes = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const node = await seedNode(db);
        return { ...node, ...(await issueToken(db, node)) };
      }),
    );
    const body = gzipBatch(makeAgentBatch(1, { samples: 1, remoteIps: 2 }));
    // BullMQ numbers jobs with INCR on this key: a non-number makes every add fail inside Redis.
    const idKey = `${prefix}:ingest:id`;
    await redis.set(idKey, "not-a-number");
    const refused = await Promise.all(nodes.map((n) => postBatch(ingest.port, { token: n.token, body })));
    assert.deepEqual(
      refused.map((r) => r.status),
      nodes.map(() => 503),
    );
    assert.ok(refused.every((r) => r.headers["retry-after"] !== undefined));
    assert.equal(await queue.count(), 0);
    await redis.del(idKey);
    const retried = await Promise.all(nodes.map((n) => postBatch(ingest.port, { token: n.token, body })));
    assert.deepEqual(
      retried.map((r) => [r.status, r.json.status]),
      nodes.map(() => [202, "accepted"]),
    );
  });
});
