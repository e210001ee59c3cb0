// The worker's GET /metrics on its health port (real worker, Redis, PostgreSQL): 401 without the
// bearer token; with it, a Prometheus exposition (read with a Prometheus text parser) holding the
// job it just ran, the queues' depths, and /healthz reporting the (unconfigured) read replica.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Writable } from "node:stream";
import { createLogger } from "@rpcpulse/config";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, getQueue, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { parsePrometheusText } from "@rpcpulse/config/testing";
import { parseWorkerEnv } from "../src/env.js";
import { startWorker, type RunningWorker } from "../src/start-worker.js";

const TOKEN = "worker-metrics-token-0123";

describe("worker GET /metrics", () => {
  let db: TestDatabase;
  let redis: Redis;
  let worker: RunningWorker;
  const prefix = uniquePrefix();

  before(async () => {
    db = await createTestDatabase();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    const env = parseWorkerEnv({
      DATABASE_URL: db.url,
      REDIS_URL: SHARED_REDIS_URL,
      QUEUE_PREFIX: prefix,
      WORKER_HEALTH_HOST: "127.0.0.1",
      WORKER_HEALTH_PORT: "0",
      WORKER_REGISTER_SCHEDULES: "false",
      WORKER_PROBE_ENABLED: "false",
      METRICS_TOKEN: TOKEN,
    });
    const log = createLogger({
      name: "worker",
      level: "warn",
      destination: new Writable({ write: (_c, _e, d) => d() }),
    });
    worker = await startWorker(env, log);
  });
  after(async () => {
    await worker?.stop("test done");
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  it("answers 401 without the token, and with it exposes jobs and queues", async () => {
    const url = `http://127.0.0.1:${worker.healthPort}`;
    assert.equal((await fetch(`${url}/metrics`)).status, 401);
    const job = await getQueue("maintenance", { connection: redis, prefix }).add("maintenance", { task: "storage" });
    const deadline = Date.now() + 30_000;
    while ((await job.getState()) !== "completed") {
      if (Date.now() > deadline) throw new Error("maintenance job did not complete");
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 100));
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200);
    const families = new Map(parsePrometheusText(await res.text()).map((f) => [f.name, f]));
    assert.equal(families.get("rpcpulse_job_duration_seconds")?.type, "HISTOGRAM");
    assert.ok((families.get("rpcpulse_job_duration_seconds")?.metrics[0]?.buckets?.["+Inf"] ?? "0") !== "0");
    const depth = families
      .get("rpcpulse_queue_jobs")
      ?.metrics.find((m) => m.labels?.queue === "maintenance" && m.labels.state === "waiting");
    assert.equal(depth?.value, "0");
    // The worker's own region probe queue (PROBE_REGION default "local") is watched too.
    const region = families
      .get("rpcpulse_queue_jobs")
      ?.metrics.find((m) => m.labels?.queue === "probe.local" && m.labels.state === "waiting");
    assert.equal(region?.value, "0");
    assert.equal(families.get("rpcpulse_db_reads_on_replica")?.metrics[0]?.value, "0");
    const health = (await (await fetch(`${url}/healthz`)).json()) as {
      status: string;
      replica: { configured: boolean };
    };
    assert.equal(health.status, "ok");
    assert.equal(health.replica.configured, false);
  });
});
