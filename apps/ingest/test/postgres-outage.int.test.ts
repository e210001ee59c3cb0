// PostgreSQL stopped for far longer than the whole retry schedule of an ingest job, then started
// again: every accepted sample is stored exactly once. Real processes and servers: a PostgreSQL
// cluster of this test's own (initdb + pg_ctl, so stopping it touches nothing shared), the ingest
// API in-process, the real worker process (apps/worker/src/main.ts), the shared Redis (own prefix).
//
// The schedule is compressed: 3 attempts from 20 ms, doubling (≈ 60 ms in all, where production has
// 12 attempts from 1 s, ≈ 68 min), and the worker's outage waits cap at 400 ms (production 60 s).
// The outage lasts 8 s: over 100 times the whole attempt schedule and 20 times the longest wait.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createLogger } from "@rpcpulse/config";
import { createTestDatabase, type TestDatabase, waitFor } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, getQueue, type Redis } from "@rpcpulse/queue";
import { deleteKeys, freePort, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { parseIngestEnv } from "../src/env.js";
import { startIngest, type RunningIngest } from "../src/start-ingest.js";
import { gzipBatch, makeAgentBatch } from "./support/agent-batches.js";
import { issueToken, seedNode, type SeededNode } from "./support/fleet.js";
import { postBatch } from "./support/http.js";
import { ThrowawayPostgres } from "./support/throwaway-postgres.js";

const workerDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../worker");
const OUTAGE_MS = 8_000;
const SAMPLES = 6;

describe("PostgreSQL down longer than the whole retry schedule (own cluster, real worker)", () => {
  let server: ThrowawayPostgres;
  let db: TestDatabase;
  let redis: Redis;
  let prefix: string;
  let ingest: RunningIngest;
  let worker: ChildProcess;
  let workerLog = "";

  before(async () => {
    server = new ThrowawayPostgres(await freePort());
    await server.init();
    await server.start();
    db = await createTestDatabase({ serverUrl: server.url() });
    db.pool.on("error", () => undefined);
    prefix = uniquePrefix();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    ingest = await startIngest(
      parseIngestEnv({
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: prefix,
        INGEST_HOST: "127.0.0.1",
        INGEST_PORT: "0",
        INGEST_RATE_BURST: "1000",
        INGEST_RATE_PER_SECOND: "1000",
        INGEST_JOB_ATTEMPTS: "3",
        INGEST_JOB_BACKOFF_MS: "20",
      }),
      createLogger({ name: "ingest", level: "silent", destination: new Writable({ write: (_c, _e, d) => d() }) }),
    );
    worker = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: workerDir,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: prefix,
        WORKER_ID: `outage-test-${prefix}`,
        WORKER_HEALTH_HOST: "127.0.0.1",
        WORKER_HEALTH_PORT: "0",
        WORKER_REGISTER_SCHEDULES: "false",
        WORKER_MAINTENANCE_ENABLED: "false",
        WORKER_PROBE_ENABLED: "false",
        WORKER_ADVISOR_ENABLED: "false",
        WORKER_ALERTS_ENABLED: "false",
        WORKER_NOTIFY_ENABLED: "false",
        WORKER_HEARTBEAT_INTERVAL_MS: "60000",
        INGEST_DB_RETRY_BASE_MS: "100",
        INGEST_DB_RETRY_MAX_MS: "400",
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
      await once(worker, "exit");
    }
    await ingest?.stop();
    await closeQueues(redis);
    if (prefix) await deleteKeys(redis, prefix);
    await redis?.quit();
    await db?.drop().catch(() => undefined);
    await server?.destroy();
  });

  it("every batch accepted during the outage (202) is stored exactly once after it; none is parked", async () => {
    const count = async (sql: string, params: unknown[]) =>
      Number((await db.pool.query<{ n: string }>(sql, params)).rows[0]?.n ?? 0);
    const node: SeededNode & { token?: string } = await seedNode(db);
    const { token } = await issueToken(db, node);
    const start = Date.now() - 3_600_000;
    // One install sends 1..10; then the agent is reinstalled (new install id, numbering from 1).
    const firstInstall = "outage-first-install-0001";
    const secondInstall = "outage-second-install-0002";
    const batch = (installId: string, seq: number, offsetMs: number) =>
      gzipBatch(
        makeAgentBatch(seq, {
          samples: SAMPLES,
          remoteIps: 2,
          installId,
          start: new Date(start + offsetMs + seq * SAMPLES * 10_000),
        }),
      );
    assert.equal((await postBatch(ingest.port, { token, body: batch(firstInstall, 1, 0) })).status, 202);
    await waitFor(
      "the first batch stored",
      async () =>
        (await count("SELECT count(*) AS n FROM node_samples WHERE node_id = $1", [node.nodeId])) === SAMPLES
          ? true
          : undefined,
      30_000,
    );

    const queue = getQueue("ingest", { connection: redis, prefix });
    await server.stop();
    const downAt = Date.now();
    let sent = 1;
    for (let seq = 2; seq <= 10; seq++, sent++) {
      const reply = await postBatch(ingest.port, { token, body: batch(firstInstall, seq, 0) });
      assert.equal(
        reply.status,
        202,
        `accepted from the token cache while PostgreSQL is down: ${JSON.stringify(reply.json)}`,
      );
    }
    for (let seq = 1; seq <= 5; seq++, sent++) {
      const reply = await postBatch(ingest.port, { token, body: batch(secondInstall, seq, 1_800_000) });
      assert.equal(reply.status, 202, "the reinstalled agent's batch 1.. is new data, not a duplicate");
      assert.equal(reply.json.status, "accepted");
    }
    // While it is down, the jobs are tried again and again, and none uses up its attempts.
    let maxStarts = 0;
    while (Date.now() - downAt < OUTAGE_MS) {
      const jobs = await queue.getJobs(["delayed", "wait", "active"]);
      for (const job of jobs) maxStarts = Math.max(maxStarts, job.attemptsStarted);
      assert.equal(await queue.getFailedCount(), 0, "no job parked during the outage");
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(maxStarts > 3, `jobs were tried more often (${maxStarts}) than their 3 attempts allow`);
    await server.start();

    const expected = sent * SAMPLES;
    await waitFor(
      `${expected} samples`,
      async () =>
        (await count("SELECT count(*) AS n FROM node_samples WHERE node_id = $1", [node.nodeId])) === expected
          ? true
          : undefined,
      30_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\nworker log:\n${workerLog.slice(-3000)}`);
    });
    await waitFor("the queue to drain", async () => ((await queue.count()) === 0 ? true : undefined), 10_000);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await count("SELECT count(*) AS n FROM node_samples WHERE node_id = $1", [node.nodeId]), expected);
    assert.equal(
      await count("SELECT count(DISTINCT time) AS n FROM node_samples WHERE node_id = $1", [node.nodeId]),
      expected,
      "exactly once",
    );
    assert.equal(
      await count("SELECT count(*) AS n FROM node_remote_ips WHERE node_id = $1", [node.nodeId]),
      expected * 2,
    );
    assert.equal(await queue.getFailedCount(), 0, "nothing parked");
    assert.equal(workerLog.includes(token), false);
  });
});
