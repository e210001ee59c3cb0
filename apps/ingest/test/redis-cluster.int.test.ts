// Queues on a REAL Redis Cluster: 3 masters + 3 replicas on loopback started by this test
// (redis-server --cluster-enabled yes, redis-cli --cluster create --cluster-replicas 1). Agent-style
// batches → the ingest API (in-process) → BullMQ on the cluster (hash-tagged queue keys) → the real
// worker process (apps/worker/src/main.ts) → PostgreSQL. Mid-stream the master holding the ingest
// queue is failed over to its replica; every sample sent lands exactly once.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { Writable } from "node:stream";
import { createLogger } from "@rpcpulse/config";
import { createTestDatabase, type TestDatabase, waitFor } from "@rpcpulse/db/testing";
import { bullQueueName, closeQueues, createRedisClient, getQueue, type RedisConnection } from "@rpcpulse/queue";
import { PrivateRedisCluster, deleteKeys, uniquePrefix } from "@rpcpulse/queue/testing";
import { parseIngestEnv } from "../src/env.js";
import { startIngest, type RunningIngest } from "../src/start-ingest.js";
import { gzipBatch, makeAgentBatch } from "./support/agent-batches.js";
import { issueToken, seedNode, type SeededNode } from "./support/fleet.js";
import { postBatch } from "./support/http.js";

const workerDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../worker");

/** What rpcpulse-agent does per batch: retry 5xx, 429 and network errors with backoff, never other 4xx. */
async function pushLikeAgent(port: number, token: string, body: Buffer): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const reply = await postBatch(port, { token, body }).catch(() => undefined);
    if (reply && reply.status < 300) return attempt;
    if (reply && reply.status !== 429 && reply.status < 500) throw new Error(`refused with ${reply.status}`);
    if (attempt > 100) throw new Error("gave up");
    await new Promise((r) => setTimeout(r, Math.min(500, 20 * 2 ** attempt)));
  }
}

describe("ingest → worker → PostgreSQL on a real Redis Cluster, across a master failover", () => {
  const cluster = new PrivateRedisCluster(3);
  let db: TestDatabase;
  let redis: RedisConnection;
  let ingest: RunningIngest;
  let worker: ChildProcess;
  let workerLog = "";
  const prefix = uniquePrefix();

  before(async () => {
    await cluster.start();
    db = await createTestDatabase();
    db.pool.on("error", () => undefined);
    redis = createRedisClient(
      { url: "redis://127.0.0.1:6379", clusterNodes: cluster.nodes },
      { role: "worker", connectionName: "cluster-test" },
    );
    const silent = createLogger({
      name: "ingest",
      level: "warn",
      destination: new Writable({ write: (_c, _e, done) => done() }),
    });
    ingest = await startIngest(
      parseIngestEnv({
        DATABASE_URL: db.url,
        REDIS_CLUSTER_NODES: cluster.nodesEnv,
        QUEUE_PREFIX: prefix,
        INGEST_HOST: "127.0.0.1",
        INGEST_PORT: "0",
        INGEST_RATE_BURST: "1000",
        INGEST_RATE_PER_SECOND: "1000",
        INGEST_LOAD_CHECK_INTERVAL_MS: "0",
      }),
      silent,
    );
    worker = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: workerDir,
      env: {
        DATABASE_URL: db.url,
        REDIS_CLUSTER_NODES: cluster.nodesEnv,
        QUEUE_PREFIX: prefix,
        WORKER_ID: `cluster-test-${prefix}`,
        WORKER_HEALTH_HOST: "127.0.0.1",
        WORKER_HEALTH_PORT: "0",
        WORKER_REGISTER_SCHEDULES: "false",
        WORKER_MAINTENANCE_ENABLED: "false",
        WORKER_HEARTBEAT_INTERVAL_MS: "60000",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout?.on("data", (d: Buffer) => (workerLog += d.toString()));
    worker.stderr?.on("data", (d: Buffer) => (workerLog += d.toString()));
  });

  after(async () => {
    if (worker && worker.exitCode === null) {
      worker.kill("SIGTERM");
      await Promise.race([once(worker, "exit"), new Promise((r) => setTimeout(r, 10_000))]);
      if (worker.exitCode === null) worker.kill("SIGKILL");
    }
    await ingest?.stop();
    if (redis) {
      await closeQueues(redis);
      await deleteKeys(redis, prefix).catch(() => undefined);
      redis.disconnect();
    }
    await db?.drop();
    await cluster.destroy();
  });

  it("keeps each queue on one slot, and loses nothing when the ingest queue's master fails over", async () => {
    const nodes: Array<SeededNode & { token: string; tokenId: string }> = [];
    for (let i = 0; i < 4; i++) {
      const node = await seedNode(db);
      nodes.push({ ...node, ...(await issueToken(db, node)) });
    }
    const samplesPerBatch = 5;
    const batchesPerNode = 12;
    const start = Date.now() - 30 * 60_000;
    const send = async (seq: number) => {
      await Promise.all(
        nodes.map((node) =>
          pushLikeAgent(
            ingest.port,
            node.token,
            gzipBatch(
              makeAgentBatch(seq, {
                samples: samplesPerBatch,
                remoteIps: 1,
                start: new Date(start + seq * samplesPerBatch * 10_000),
              }),
            ),
          ),
        ),
      );
    };
    for (let seq = 1; seq <= 4; seq++) await send(seq);

    // The ingest queue is hash-tagged: every one of its keys lives on the slot of "{ingest}".
    const queueName = bullQueueName("ingest", redis);
    assert.equal(queueName, "{ingest}");
    const owner = await cluster.ownerOf(queueName);
    assert.ok(owner.replica, "the ingest queue's master has a replica");
    const keysOnOwner = await new Promise<string[]>((resolve, reject) => {
      const probe = createRedisClient({ url: `redis://127.0.0.1:${owner.master}` }, { role: "worker" });
      probe
        .keys(`${prefix}:{ingest}:*`)
        .then(resolve, reject)
        .finally(() => probe.disconnect());
    });
    assert.ok(keysOnOwner.length > 0, "the queue's keys are on the master of its slot");

    // Fail the master over while batches keep coming.
    const sending = (async () => {
      for (let seq = 5; seq <= batchesPerNode; seq++) await send(seq);
    })();
    await new Promise((r) => setTimeout(r, 200));
    await cluster.failover(owner.replica);
    await sending;
    const after = await cluster.ownerOf(queueName);
    assert.equal(after.master, owner.replica, "the replica now serves the ingest queue");

    const expected = batchesPerNode * samplesPerBatch;
    for (const node of nodes) {
      await waitFor(
        `${expected} samples of ${node.nodeId}\n${workerLog}`,
        async () => {
          const { rows } = await db.pool.query<{ n: string }>(
            "SELECT count(*) AS n FROM node_samples WHERE node_id = $1",
            [node.nodeId],
          );
          return Number(rows[0]?.n) === expected ? true : undefined;
        },
        40_000,
      );
    }
    const counts = await getQueue("ingest", { connection: redis, prefix }).getJobCounts(
      "completed",
      "failed",
      "waiting",
      "delayed",
    );
    assert.equal(counts.failed, 0);
    assert.equal(counts.completed, nodes.length * batchesPerNode);
    // Exactly once: no duplicate rows (node, time) after the failover's retries.
    const { rows } = await db.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM (SELECT node_id, time FROM node_samples GROUP BY 1, 2 HAVING count(*) > 1) d",
    );
    assert.equal(Number(rows[0]?.n), 0);
  });
});
