// The worker shell against a real Redis: validation, retries, permanent failures, graceful
// shutdown with a job in flight, and surviving a Redis restart (on a private redis-server).
import assert from "node:assert/strict";
import { once } from "node:events";
import { after, before, describe, it } from "node:test";
import { AppError, createLogger } from "@rpcpulse/config";
import {
  closeQueues,
  createRedisConnection,
  enqueueMaintenance,
  getQueue,
  type QueueTarget,
  type Redis,
} from "@rpcpulse/queue";
import type { Job, Worker } from "bullmq";
import { registerProcessor } from "../src/shell/register-processor.js";
import { createShutdown } from "../src/shell/shutdown.js";
import { deleteKeys, freePort, PrivateRedis, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";

const log = createLogger({ name: "worker-test", level: "silent" });

/** `promise`, or a rejection naming `what` after `ms`. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function waitForJob(worker: Worker, jobId: string, event: "completed" | "failed", timeoutMs = 10_000): Promise<Job> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`job ${jobId} not ${event} within ${timeoutMs} ms`)), timeoutMs);
    const listener = (job: Job | undefined) => {
      if (job?.id !== jobId) return;
      if (event === "failed" && job.attemptsMade < (job.opts.attempts ?? 1) && !job.finishedOn) return;
      clearTimeout(timer);
      worker.off(event, listener);
      resolve(job);
    };
    worker.on(event, listener);
  });
}

describe("registerProcessor against a real Redis", () => {
  let redis: Redis;
  let target: QueueTarget;
  const workers: Worker[] = [];

  before(() => {
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker", connectionName: "worker-shell-test" });
    target = { connection: redis, prefix: uniquePrefix() };
  });

  after(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await closeQueues(redis);
    await deleteKeys(redis, target.prefix);
    await redis.quit();
  });

  it("retries a transiently failing job with backoff until it succeeds", async () => {
    const attempts: number[] = [];
    const worker = registerProcessor(
      "maintenance",
      async (_payload, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt < 3) throw new AppError("UNAVAILABLE", "database restarting");
        return { ok: true };
      },
      { target, log, concurrency: 1 },
    );
    workers.push(worker);
    const { jobId } = await enqueueMaintenance(target, { task: "storage" }, { backoff: { type: "fixed", delay: 50 } });
    const job = await waitForJob(worker, jobId, "completed");
    assert.deepEqual(attempts, [1, 2, 3]);
    assert.equal(job.attemptsMade, 3);
    assert.deepEqual(job.returnvalue, { ok: true });
    await worker.close();
  });

  it("fails a permanent error at once instead of burning the attempts", async () => {
    let calls = 0;
    const worker = registerProcessor(
      "maintenance",
      async () => {
        calls += 1;
        throw new AppError("NOT_FOUND", "node is gone");
      },
      { target, log, concurrency: 1 },
    );
    workers.push(worker);
    const { jobId } = await enqueueMaintenance(target, { task: "storage" }, { backoff: { type: "fixed", delay: 50 } });
    const job = await waitForJob(worker, jobId, "failed");
    assert.equal(calls, 1);
    assert.equal(job.failedReason, "node is gone");
    assert.equal(job.attemptsMade, 1, "no retry although the catalog allows 5 attempts");
    await worker.close();
  });

  it("refuses a job whose payload breaks the contract, with a clear error, without calling the processor", async () => {
    let called = false;
    const worker = registerProcessor(
      "maintenance",
      async () => {
        called = true;
      },
      { target, log, concurrency: 1 },
    );
    workers.push(worker);
    // A producer that skipped validation (or an older/newer incompatible one) adds it directly.
    const job = await getQueue("maintenance", target).add("maintenance", { task: "defragment-everything" } as never);
    const failed = await waitForJob(worker, job.id ?? "", "failed");
    assert.equal(called, false);
    assert.match(failed.failedReason, /^Invalid "maintenance" job payload: task: /);
    assert.equal(failed.attemptsMade, 1);
    await worker.close();
  });

  it("lets an in-flight job finish on shutdown before the connection closes", async () => {
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finished = false;
    const worker = registerProcessor(
      "maintenance",
      async () => {
        release();
        await new Promise((r) => setTimeout(r, 700));
        finished = true;
        return { slow: true };
      },
      { target, log, concurrency: 1 },
    );
    const { jobId } = await enqueueMaintenance(target, { task: "storage" });
    await started;
    const order: string[] = [];
    const shutdown = createShutdown(
      [
        {
          name: "close workers",
          run: () => worker.close().then(() => void order.push(`workers closed, job finished=${finished}`)),
        },
        { name: "after", run: async () => void order.push("next step") },
      ],
      { log, timeoutMs: 5_000 },
    );
    const outcome = await shutdown("SIGTERM");
    assert.equal(outcome, "clean");
    assert.deepEqual(order, ["workers closed, job finished=true", "next step"]);
    const job = await getQueue("maintenance", target).getJob(jobId);
    assert.equal(await job?.getState(), "completed");
    assert.deepEqual(job?.returnvalue, { slow: true });
    assert.equal(await shutdown("SIGINT"), "clean", "a second signal joins the same shutdown");
  });

  it("reports a shutdown that overruns its deadline", async () => {
    const shutdown = createShutdown([{ name: "hangs", run: () => new Promise(() => undefined) }], {
      log,
      timeoutMs: 100,
    });
    assert.equal(await shutdown("SIGTERM"), "timed-out");
  });
});

describe("surviving a Redis restart (private redis-server, AOF on)", () => {
  let server: PrivateRedis;
  before(async () => {
    server = new PrivateRedis(await freePort());
    await server.start();
  });
  after(async () => {
    await server.destroy();
  });

  it("keeps a queued job across the restart and processes it after reconnecting", async () => {
    const redis = createRedisConnection(server.url, { role: "worker", connectionName: "worker-restart-test" });
    const target: QueueTarget = { connection: redis, prefix: uniquePrefix() };
    const processed: string[] = [];
    const worker = registerProcessor(
      "maintenance",
      async (_payload, ctx) => {
        processed.push(ctx.jobId);
      },
      { target, log, concurrency: 1 },
    );
    worker.on("error", () => undefined);
    redis.on("error", () => undefined);
    try {
      const first = await enqueueMaintenance(target, { task: "storage" });
      await waitForJob(worker, first.jobId, "completed");

      // Queued with a delay so it is still waiting in Redis when Redis goes away.
      const second = await enqueueMaintenance(target, { task: "storage" }, { delay: 1_500 });
      await server.stop();
      // The client sees the closed socket on a later turn of the event loop (later still on a loaded machine).
      if (redis.status === "ready") await within(5_000, "the client to see Redis go", once(redis, "close"));
      assert.notEqual(redis.status, "ready");
      await new Promise((r) => setTimeout(r, 500));
      await server.start();
      if (redis.status !== "ready") await within(15_000, "the client to reconnect", once(redis, "ready"));
      await waitForJob(worker, second.jobId, "completed", 15_000);
      assert.deepEqual(processed, [first.jobId, second.jobId]);
    } finally {
      // Bounded: if Redis did not come back (its port taken meanwhile), fail instead of waiting forever.
      // A worker client waits for Redis forever by design, so every step of the cleanup is bounded too.
      await within(10_000, "the worker to close", worker.close())
        .catch(() => within(5_000, "the worker to force-close", worker.close(true)))
        .catch(() => undefined);
      redis.disconnect();
      await within(5_000, "the queues to close", closeQueues(redis)).catch(() => undefined);
    }
  });
});
