// The whole worker (startWorker, and main.ts as a real process) against the real Redis and a
// fresh plain-mode PostgreSQL database from createTestDatabase().
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import path from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { createLogger } from "@rpcpulse/config";
import { insertNodeSamples } from "@rpcpulse/db/fleet";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase, waitFor } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, enqueueMaintenance, getQueue, type Redis } from "@rpcpulse/queue";
import { parseWorkerEnv } from "../src/env.js";
import { startWorker, type RunningWorker } from "../src/start-worker.js";
import { deleteKeys, freePort, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";

const workerDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: createLogger({ name: "worker", level: "debug", destination }) };
}

/** A worker whose PostgreSQL is unreachable, schedules off and every consumer off unless `overrides` turn one on. */
async function unreachableDatabaseEnv(overrides: Record<string, string>) {
  return parseWorkerEnv({
    DATABASE_URL: `postgresql://postgres@127.0.0.1:${await freePort()}/nothing`,
    WORKER_HEALTH_HOST: "127.0.0.1",
    WORKER_HEALTH_PORT: "0",
    WORKER_REGISTER_SCHEDULES: "false",
    WORKER_MAINTENANCE_ENABLED: "false",
    WORKER_INGEST_ENABLED: "false",
    WORKER_PROBE_ENABLED: "false",
    WORKER_ADVISOR_ENABLED: "false",
    WORKER_ALERTS_ENABLED: "false",
    WORKER_NOTIFY_ENABLED: "false",
    ...overrides,
  });
}

async function count(db: TestDatabase, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.pool.query<{ n: string }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

describe("worker against real PostgreSQL (plain mode) and Redis", () => {
  let db: TestDatabase;
  let redis: Redis;
  let prefix: string;
  let worker: RunningWorker | undefined;
  const captured = captureLogger();
  const nodeId = randomUUID();
  const sampleTime = new Date(Date.now() - 10 * 60_000);

  before(async () => {
    db = await createTestDatabase();
    prefix = uniquePrefix();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
  });

  after(async () => {
    await worker?.stop("test end");
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  it("starts, logs the storage mode, serves /healthz and writes a heartbeat that updates", async () => {
    // A closed minute of raw data that the maintenance run must roll up.
    await insertNodeSamples(db.sql, [{ time: sampleTime, nodeId, tcpEstablished: 42 }]);
    const env = parseWorkerEnv({
      DATABASE_URL: db.url,
      REDIS_URL: SHARED_REDIS_URL,
      QUEUE_PREFIX: prefix,
      WORKER_ID: `test-${prefix}`,
      WORKER_HEALTH_HOST: "127.0.0.1",
      WORKER_HEALTH_PORT: "0",
      WORKER_HEARTBEAT_INTERVAL_MS: "200",
      MAINTENANCE_INTERVAL_MS: "60000",
      STATUS_UPTIME_INTERVAL_MS: "1000",
    });
    worker = await startWorker(env, captured.log);
    assert.ok(captured.lines.some((l) => l.storageMode === "plain" && /storage mode plain/.test(String(l.msg))));

    const res = await fetch(`http://127.0.0.1:${worker.healthPort}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(((await res.json()) as { checks: unknown }).checks, { redis: "ok", postgres: "ok" });
    assert.equal((await fetch(`http://127.0.0.1:${worker.healthPort}/other`)).status, 404);

    const id = `test-${prefix}`;
    const first = await waitFor(
      "a heartbeat row",
      () => db.prisma.workerHeartbeat.findUnique({ where: { id } }).then((r) => r ?? undefined),
      15_000,
    );
    assert.equal(first.role, "worker");
    assert.equal(first.pid, process.pid);
    // The region probe queue (PROBE_REGION default "local") is listed too: the registry rounds are fanned out by.
    assert.deepEqual(first.queues, ["maintenance", "ingest", "probe", "alerts", "notify", "advisor", "probe.local"]);
    const later = await waitFor(
      "a newer heartbeat",
      async () => {
        const row = await db.prisma.workerHeartbeat.findUnique({ where: { id } });
        return row && row.lastSeenAt > first.lastSeenAt ? row : undefined;
      },
      15_000,
    );
    assert.equal(later.startedAt.getTime(), first.startedAt.getTime(), "one process, one startedAt");
  });

  it("registers the recurring maintenance job, which creates partitions and rolls up closed buckets", async () => {
    const queue = getQueue("maintenance", { connection: redis, prefix });
    const schedulers = await waitFor(
      "both schedulers",
      async () => {
        const list = await queue.getJobSchedulers();
        return list.length > 1 ? list : undefined;
      },
      15_000,
    );
    assert.deepEqual(schedulers.map((s) => [s.key, Number(s.every)]).sort(), [
      ["maintenance-status-uptime", 1_000],
      ["maintenance-storage", 60_000],
    ]);
    const completed = await waitFor(
      "a completed maintenance job",
      async () => {
        const jobs = await queue.getJobs(["completed"]);
        return jobs.find((j) => (j.data as { task: string }).task === "storage");
      },
      15_000,
    );
    assert.equal((completed?.returnvalue as { mode: string }).mode, "plain");
    const partitions = await count(
      db,
      `SELECT count(*) AS n FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'node_samples'::regclass AND c.relname <> 'node_samples_default'`,
    );
    assert.ok(partitions >= 1, "partitions around now exist");
    const rolledUp = await count(db, "SELECT count(*) AS n FROM node_samples_1m WHERE node_id = $1", [nodeId]);
    assert.equal(rolledUp, 1, "the closed minute with a sample is in the 1-minute rollup");
    assert.ok(
      captured.lines.some(
        (l) => l.queue === "maintenance" && l.msg === "job completed" && typeof l.durationMs === "number",
      ),
    );
  });

  it("precomputes the uptime days of a component added to a public status page within one interval", async () => {
    await createTestOrg(db, { id: "org-worker-status", name: "s" });
    // A hive node (createTestNode's defaults) created two days ago: two finished days to cache.
    const node = await createTestNode(db, {
      organizationId: "org-worker-status",
      name: "listed",
      createdAt: new Date(Date.now() - 2 * 86_400_000),
    });
    const page = await db.prisma.statusPage.create({
      data: { organizationId: "org-worker-status", slug: "worker-status", title: "w", isPublic: true },
    });
    await db.prisma.statusComponent.create({
      data: { pageId: page.id, kind: "node", nodeId: node.id, displayName: "listed" },
    });
    const days = await waitFor(
      "two cached finished days",
      async () => {
        const n = await count(db, "SELECT count(*) AS n FROM status_uptime_days WHERE ref_id = $1", [node.id]);
        return n === 2 ? n : undefined;
      },
      15_000,
    );
    assert.equal(days, 2);
    const logged = await waitFor(
      "the run's log line",
      async () => captured.lines.find((l) => l.msg === "status uptime days refreshed" && l.refsFilled === 1),
      15_000,
    );
    assert.deepEqual([logged.refsChecked, logged.daysWritten, logged.refsPending], [1, 2, 0]);
  });

  it("keeps running when a status uptime run meets a database error (the job is retried)", async () => {
    const otherPrefix = uniquePrefix();
    const env = await unreachableDatabaseEnv({ QUEUE_PREFIX: otherPrefix, WORKER_MAINTENANCE_ENABLED: "true" });
    const quiet = captureLogger();
    const broken = await startWorker(env, quiet.log);
    try {
      const { jobId } = await enqueueMaintenance({ connection: redis, prefix: otherPrefix }, { task: "status-uptime" });
      const failed = await waitFor(
        "the failed attempt",
        async () => quiet.lines.find((l) => l.jobId === jobId && l.msg === "job failed, will retry"),
        15_000,
      );
      assert.equal(failed.attempt, 1);
      assert.equal((await fetch(`http://127.0.0.1:${broken.healthPort}/healthz`)).status, 503, "still serving");
    } finally {
      assert.equal(await broken.stop("test end"), "clean");
      await deleteKeys(redis, otherPrefix);
    }
  });

  it("answers 503 on /healthz while PostgreSQL does not (the worker keeps running)", async () => {
    const env = await unreachableDatabaseEnv({ QUEUE_PREFIX: prefix });
    const quiet = captureLogger();
    const broken = await startWorker(env, quiet.log);
    try {
      assert.ok(quiet.lines.some((l) => l.msg === "database not ready at start; /healthz reports it"));
      const res = await fetch(`http://127.0.0.1:${broken.healthPort}/healthz`);
      assert.equal(res.status, 503);
      assert.deepEqual(((await res.json()) as { checks: unknown }).checks, { redis: "ok", postgres: "down" });
      assert.deepEqual(broken.queues, []);
    } finally {
      assert.equal(await broken.stop("test end"), "clean");
    }
  });
});

describe("main.ts as a process", () => {
  it("exits 1 naming the bad variable", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: workerDir,
      env: { WORKER_MAINTENANCE_CONCURRENCY: "lots", REDIS_URL: "http://127.0.0.1:6379" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(child, "exit")) as [number];
    assert.equal(code, 1);
    assert.match(stderr, /^rpcpulse-worker: Invalid environment:/);
    assert.match(stderr, /WORKER_MAINTENANCE_CONCURRENCY: .*\(it is set but invalid\)/);
    assert.match(stderr, /REDIS_URL: must be a redis:\/\/ URL/);
  });

  it("starts with a real env, becomes healthy and stops cleanly on SIGTERM", async () => {
    const db = await createTestDatabase();
    const prefix = uniquePrefix();
    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: workerDir,
      env: {
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: prefix,
        WORKER_HEALTH_HOST: "127.0.0.1",
        WORKER_HEALTH_PORT: String(port),
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    try {
      await waitFor(
        "/healthz 200",
        () =>
          fetch(`http://127.0.0.1:${port}/healthz`).then(
            (r) => (r.status === 200 ? true : undefined),
            () => undefined,
          ),
        15_000,
      );
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const [code] = (await exited) as [number];
      assert.equal(code, 0, output);
      const messages = output
        .split("\n")
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { msg: string }).msg);
      assert.ok(messages.includes("worker started"));
      assert.deepEqual(
        messages.filter((m) => m === "shutting down" || m === "shutdown complete"),
        ["shutting down", "shutdown complete"],
      );
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await deleteKeys(redis, prefix);
      await redis.quit();
      await db.drop();
    }
  });
});
