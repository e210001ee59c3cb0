import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { after, before, describe, it } from "node:test";
import { AppError } from "@rpcpulse/config";
import type { Redis } from "ioredis";
import {
  closeQueues,
  createRedisConnection,
  enqueueIngestBatch,
  enqueueMaintenance,
  getQueue,
  INGEST_NUMERIC_METRICS,
  pingRedis,
  registerRecurringJobs,
  type QueueTarget,
} from "../src/index.js";

const REDIS_URL = "redis://127.0.0.1:6379";

async function deleteKeys(connection: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  for await (const keys of connection.scanStream({ match: `${prefix}:*`, count: 500 }) as AsyncIterable<string[]>) {
    if (keys.length) deleted += await connection.unlink(...keys);
  }
  return deleted;
}

describe("queue producers and schedulers against a real Redis", () => {
  let connection: Redis;
  let target: QueueTarget;

  before(() => {
    connection = createRedisConnection(REDIS_URL, { role: "producer", connectionName: "queue-int-test" });
    target = { connection, prefix: `rpcpulse_t_${randomBytes(6).toString("hex")}` };
  });

  after(async () => {
    await closeQueues(connection);
    await deleteKeys(connection, target.prefix);
    await connection.quit();
  });

  it("answers a ping once connected (a producer does not queue commands while offline)", async () => {
    if (connection.status !== "ready") await once(connection, "ready");
    assert.equal(await pingRedis(connection), true);
  });

  it("enqueues a validated ingest job once per (node, install, batchSeq)", async () => {
    const nodeId = "8d2f1c4e-6b1a-4f3e-9a53-3c2b1d0e9f11";
    const payload = {
      organizationId: "org_a",
      nodeId,
      networkId: "1f0e2d3c-4b5a-4978-8877-665544332211",
      batchSeq: 7,
      receivedAtMs: Date.now(),
      clockSkewMs: 0,
      agentVersion: "0.1.0",
      clientVersion: null,
      samples: {
        time: [Date.now() - 10_000],
        ...Object.fromEntries(INGEST_NUMERIC_METRICS.map((f) => [f, [1]])),
        syncing: [null],
      } as Parameters<typeof enqueueIngestBatch>[1]["samples"],
      remoteIps: { sample: [0], ip: ["2001:db8::1"], conns: [4] },
    };
    const first = await enqueueIngestBatch(target, payload);
    const retried = await enqueueIngestBatch(target, { ...payload, receivedAtMs: payload.receivedAtMs + 1 });
    // No installId (an older agent): the first sample's time names the numbering run.
    assert.equal(first.jobId, `ingest-${nodeId}-t${payload.samples.time[0]}-7`);
    assert.equal(retried.jobId, first.jobId);
    const queue = getQueue("ingest", target);
    assert.equal(await queue.count(), 1);
    // Another install's batch 7 is another job.
    const reinstalled = await enqueueIngestBatch(target, { ...payload, installId: "reinstalled-0123456789" });
    assert.equal(reinstalled.jobId, `ingest-${nodeId}-reinstalled-0123456789-7`);
    assert.equal(await queue.count(), 2);
    await queue.remove(reinstalled.jobId);
    const job = await queue.getJob(first.jobId);
    assert.deepEqual(job?.data, payload);
    assert.equal(job?.opts.attempts, 12, "catalog default job options apply");
  });

  it("refuses a bad payload before anything reaches Redis", async () => {
    const queue = getQueue("maintenance", target);
    const before = await queue.count();
    await assert.rejects(
      // @ts-expect-error -- a producer handing over a payload that breaks the contract
      enqueueMaintenance(target, { task: "vacuum-everything" }),
      (error: unknown) =>
        error instanceof AppError &&
        error.code === "VALIDATION" &&
        /Invalid "maintenance" job payload: task/.test(error.message),
    );
    assert.equal(await queue.count(), before);
  });

  it("keeps installs apart by prefix", async () => {
    const other: QueueTarget = { connection, prefix: `${target.prefix}_other` };
    try {
      assert.equal(await getQueue("ingest", other).count(), 0);
      assert.equal(await getQueue("ingest", target).count(), 1);
    } finally {
      await deleteKeys(connection, other.prefix);
    }
  });

  it("registers the recurring maintenance job idempotently and removes undeclared schedulers", async () => {
    const queue = getQueue("maintenance", target);
    await queue.upsertJobScheduler("renamed-long-ago", { every: 60_000 }, { name: "old", data: { task: "storage" } });

    const first = await registerRecurringJobs(target, { maintenanceEveryMs: 300_000 });
    assert.deepEqual(first, { upserted: ["maintenance-storage"], removed: ["renamed-long-ago"] });
    const second = await registerRecurringJobs(target, { maintenanceEveryMs: 120_000 });
    assert.deepEqual(second, { upserted: ["maintenance-storage"], removed: [] });

    const schedulers = await queue.getJobSchedulers();
    assert.equal(schedulers.length, 1);
    assert.equal(schedulers[0]?.key, "maintenance-storage");
    assert.equal(Number(schedulers[0]?.every), 120_000, "the period follows the latest registration");
    assert.deepEqual(schedulers[0]?.template?.data, { task: "storage" });
  });
});
