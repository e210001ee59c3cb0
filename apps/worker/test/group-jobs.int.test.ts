// Group jobs in the worker shell against a real Redis: every item of an "ingest-batches" job runs
// through the processor once, the job completes when all are done, a failed item fails the job
// (retried as a whole), a deferred item defers it without using up an attempt, and an invalid
// item parks the job after the valid items were processed.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createLogger } from "@rpcpulse/config";
import {
  closeQueues,
  createRedisConnection,
  enqueueGroup,
  getQueue,
  INGEST_NUMERIC_METRICS,
  queueCatalog,
  type PayloadOf,
  type QueueTarget,
  type Redis,
} from "@rpcpulse/queue";
import type { Job, Worker } from "bullmq";
import { registerProcessor } from "../src/shell/register-processor.js";
import { RetryLaterError } from "../src/shell/retry-later.js";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";

const log = createLogger({ name: "worker-group-test", level: process.env.DEBUG_GROUP ? "debug" : "silent" });

function batch(n: number, seq = 1) {
  return {
    organizationId: "org_group",
    nodeId: `5e2f1c4e-6b1a-4f3e-9a53-${String(n).padStart(12, "0")}`,
    networkId: "1f0e2d3c-4b5a-4978-8877-665544332211",
    batchSeq: seq,
    installId: "install-0123456789abcdef",
    receivedAtMs: Date.now(),
    clockSkewMs: 0,
    agentVersion: "0.1.0",
    clientVersion: null,
    samples: {
      time: [1_700_000_000_000 + seq * 10_000],
      ...Object.fromEntries(INGEST_NUMERIC_METRICS.map((f) => [f, [n]])),
      syncing: [false],
    },
    remoteIps: { sample: [0], ip: ["10.0.0.1"], conns: [1] },
  };
}

function waitForEnd(worker: Worker, jobId: string, timeoutMs = 10_000): Promise<{ state: string; job: Job }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`job ${jobId} did not end within ${timeoutMs} ms`)), timeoutMs);
    const done = (state: string) => (job: Job | undefined) => {
      if (job?.id !== jobId) return;
      if (state === "failed" && job.attemptsMade < (job.opts.attempts ?? 1) && !job.finishedOn) return;
      clearTimeout(timer);
      worker.off("completed", completed);
      worker.off("failed", failed);
      resolve({ state, job });
    };
    const completed = done("completed");
    const failed = done("failed");
    worker.on("completed", completed);
    worker.on("failed", failed);
  });
}

describe("group jobs in the worker shell (real Redis)", () => {
  let redis: Redis;
  let target: QueueTarget;
  const workers: Worker[] = [];

  before(() => {
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker", connectionName: "worker-group-test" });
    target = { connection: redis, prefix: uniquePrefix() };
  });

  after(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await closeQueues(redis);
    await deleteKeys(redis, target.prefix);
    await redis.quit();
  });

  it("runs every item once, completes the job with every result, retries the whole group after a failure", async () => {
    const seen: string[] = [];
    let failOnce = true;
    const worker = registerProcessor(
      "ingest",
      async (payload: PayloadOf<"ingest">) => {
        seen.push(`${payload.nodeId}/${payload.batchSeq}`);
        if (payload.batchSeq === 2 && failOnce) {
          failOnce = false;
          throw new Error("simulated: the flush of this item failed");
        }
        return payload.batchSeq;
      },
      { target, log, concurrency: 4 },
    );
    workers.push(worker);
    const items = [batch(1, 1), batch(2, 2), batch(3, 3)];
    const { jobId } = await enqueueGroup("ingest", target, items, { backoff: { type: "fixed", delay: 50 } });
    const { state, job } = await waitForEnd(worker, jobId);
    assert.equal(state, "completed");
    assert.equal(job.name, queueCatalog.ingest.group?.jobName);
    assert.deepEqual(job.returnvalue, [1, 2, 3]);
    assert.equal(job.attemptsMade, 2, "the failed item failed the job once");
    // Each item once per attempt: the retry runs the whole group again (the writer is idempotent).
    assert.deepEqual(seen.sort(), [...items, ...items].map((b) => `${b.nodeId}/${b.batchSeq}`).sort());
    await worker.close();
  });

  it("a deferred item defers the whole group without using up an attempt", async () => {
    let tries = 0;
    const worker = registerProcessor(
      "ingest",
      async (payload: PayloadOf<"ingest">, ctx) => {
        if (payload.batchSeq === 1 && ctx.deferrals === 0) {
          tries++;
          throw new RetryLaterError(50, "database unavailable");
        }
        return payload.batchSeq;
      },
      { target, log, concurrency: 2 },
    );
    workers.push(worker);
    const { jobId } = await enqueueGroup("ingest", target, [batch(10, 1), batch(11, 2)]);
    const { state, job } = await waitForEnd(worker, jobId);
    assert.equal(state, "completed");
    assert.equal(tries, 1);
    assert.equal(job.attemptsMade, 1, "only the try that completed counts; the deferral used none");
    await worker.close();
  });

  it("an invalid item parks the job after the valid items were processed", async () => {
    const seen: number[] = [];
    const worker = registerProcessor(
      "ingest",
      async (payload: PayloadOf<"ingest">) => {
        seen.push(payload.batchSeq);
        return payload.batchSeq;
      },
      { target, log, concurrency: 2 },
    );
    workers.push(worker);
    // Written past the producer's check (as an older or newer producer might have).
    const queue = getQueue("ingest", target);
    const job = await queue.add(queueCatalog.ingest.group!.jobName, {
      items: [batch(20, 5), { ...batch(21, 6), nodeId: "not-a-uuid" }, batch(22, 7)],
    } as never);
    const { state, job: ended } = await waitForEnd(worker, job.id!);
    assert.equal(state, "failed");
    assert.deepEqual(seen.sort(), [5, 7]);
    assert.match(ended.failedReason, /items\.1: .*nodeId/);
    assert.equal(await queue.getFailedCount(), 1, "parked, not deleted");
    await worker.close();
  });
});
