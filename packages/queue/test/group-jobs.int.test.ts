// Group jobs against a real Redis: several ingest payloads in one job, a group of one as a plain
// job, the producer-side grouper's window and bounds, and a failed add failing every payload in it.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { Redis } from "ioredis";
import {
  closeQueues,
  createJobGrouper,
  createRedisConnection,
  enqueueGroup,
  getQueue,
  ingestJobId,
  INGEST_NUMERIC_METRICS,
  isGroupJob,
  parseGroupPayloads,
  queueCatalog,
  type QueueTarget,
} from "../src/index.js";

const REDIS_URL = "redis://127.0.0.1:6379";

async function deleteKeys(connection: Redis, prefix: string): Promise<void> {
  for await (const keys of connection.scanStream({ match: `${prefix}:*`, count: 500 }) as AsyncIterable<string[]>) {
    if (keys.length) await connection.unlink(...keys);
  }
}

/** One agent batch as the ingest API queues it: `samples` samples of node `n`, sequence `seq`. */
function batch(n: number, seq: number, samples = 1) {
  const column = (v: number | null) => Array.from({ length: samples }, () => v);
  return {
    organizationId: `org_${n % 3}`,
    nodeId: `8d2f1c4e-6b1a-4f3e-9a53-${String(n).padStart(12, "0")}`,
    networkId: "1f0e2d3c-4b5a-4978-8877-665544332211",
    batchSeq: seq,
    installId: "install-0123456789abcdef",
    receivedAtMs: Date.now(),
    clockSkewMs: 0,
    agentVersion: "0.1.0",
    clientVersion: null,
    samples: {
      time: Array.from({ length: samples }, (_, i) => 1_700_000_000_000 + seq * 60_000 + i * 10_000),
      ...Object.fromEntries(INGEST_NUMERIC_METRICS.map((f) => [f, column(seq)])),
      syncing: column(null),
    },
    remoteIps: { sample: [0, 0], ip: ["10.0.0.1", "10.0.0.2"], conns: [1, 2] },
  };
}

describe("group jobs against a real Redis", () => {
  let connection: Redis;
  let target: QueueTarget;

  before(() => {
    connection = createRedisConnection(REDIS_URL, { role: "producer", connectionName: "group-jobs-int-test" });
    target = { connection, prefix: `rpcpulse_t_${randomBytes(6).toString("hex")}` };
  });

  after(async () => {
    await closeQueues(connection);
    await deleteKeys(connection, target.prefix);
    await connection.quit();
  });

  it("adds several payloads as one group job and one payload as a plain job with its catalog id", async () => {
    const queue = getQueue("ingest", target);
    const single = await enqueueGroup("ingest", target, [batch(1, 1)]);
    assert.equal(single.jobId, ingestJobId(batch(1, 1).nodeId, "install-0123456789abcdef", 1));
    const grouped = await enqueueGroup("ingest", target, [batch(2, 1), batch(3, 1), batch(4, 1)]);
    const job = await queue.getJob(grouped.jobId);
    assert.ok(job);
    assert.equal(job.name, queueCatalog.ingest.group?.jobName);
    assert.equal(isGroupJob("ingest", job.name), true);
    assert.equal(isGroupJob("ingest", (await queue.getJob(single.jobId))!.name), false);
    const { payloads, invalid } = parseGroupPayloads("ingest", job.data);
    assert.deepEqual(invalid, []);
    assert.deepEqual(
      payloads.map((p) => p.nodeId),
      [2, 3, 4].map((n) => batch(n, 1).nodeId),
    );
    assert.equal(await queue.count(), 2);
  });

  it("checks every item: a group with a bad payload is refused before Redis; a stored bad item is reported alone", async () => {
    const queue = getQueue("ingest", target);
    const before = await queue.count();
    await assert.rejects(enqueueGroup("ingest", target, [batch(5, 1), { ...batch(6, 1), batchSeq: -1 }]), /batchSeq/);
    assert.equal(await queue.count(), before);
    const parsed = parseGroupPayloads("ingest", { items: [batch(7, 1), { ...batch(8, 1), nodeId: "x" }] });
    assert.equal(parsed.payloads.length, 1);
    assert.equal(parsed.invalid.length, 1);
    assert.match(parsed.invalid[0]!, /^items\.1: .*nodeId/);
    assert.throws(() => parseGroupPayloads("ingest", { items: [] }), /items must hold/);
  });

  it("the grouper turns concurrent payloads into fewer jobs, each payload exactly once, bounded by items and weight", async () => {
    const prefix = `${target.prefix}-grouper`;
    const own: QueueTarget = { connection, prefix };
    try {
      const grouper = createJobGrouper("ingest", own, {
        maxDelayMs: 200,
        maxItems: 8,
        maxWeight: 10,
        weightOf: (p) => p.samples.time.length,
      });
      // 20 one-sample batches (groups of 8 by count), then 3 four-sample batches (10 samples at most).
      const small = Array.from({ length: 20 }, (_, i) => batch(100 + i, 1));
      const large = Array.from({ length: 3 }, (_, i) => batch(200 + i, 1, 4));
      // The same batch twice in one window shares one entry (one job, one item).
      const added = await Promise.all([small[0]!, ...small, ...large].map((p) => grouper.add(p)));
      assert.equal(added[0]!.jobId, added[1]!.jobId);
      const queue = getQueue("ingest", own);
      const jobs = await queue.getJobs(["wait"]);
      const payloadsOf = (j: (typeof jobs)[number]) =>
        isGroupJob("ingest", j.name) ? parseGroupPayloads("ingest", j.data).payloads : [j.data];
      const items = jobs.flatMap(payloadsOf);
      assert.equal(items.length, 23, "every payload once");
      assert.deepEqual(new Set(items.map((p) => p.nodeId)), new Set([...small, ...large].map((p) => p.nodeId)));
      // 8 + 8 small, then 4 small + 1 large (8 samples; a second large would pass 10), then 2 large.
      assert.equal(jobs.length, 4, "4 jobs for 23 payloads");
      for (const j of jobs) {
        const payloads = payloadsOf(j);
        assert.ok(payloads.length <= 8);
        const samples = payloads.reduce((n, p) => n + p.samples.time.length, 0);
        assert.ok(samples <= 10, `${samples} samples in one job`);
      }
      await grouper.flush();
    } finally {
      await deleteKeys(connection, prefix);
    }
  });

  it("below minRatePerSecond a payload goes alone as a plain job at once; above it payloads are grouped", async () => {
    const prefix = `${target.prefix}-rate`;
    const own: QueueTarget = { connection, prefix };
    try {
      const grouper = createJobGrouper("ingest", own, { maxDelayMs: 200, maxItems: 50, minRatePerSecond: 10 });
      const quiet = Array.from({ length: 3 }, (_, i) => batch(400 + i, 1));
      for (const p of quiet) {
        const added = await grouper.add(p);
        assert.equal(added.jobId, ingestJobId(p.nodeId, p.installId, 1), "a plain job with the catalog id");
      }
      const busy = Array.from({ length: 30 }, (_, i) => batch(500 + i, 1));
      const ids = new Set((await Promise.all(busy.map((p) => grouper.add(p)))).map((j) => j.jobId));
      // The first few go alone until the rate passes 10/s; the rest share one group job.
      assert.ok(ids.size <= 10, `${ids.size} jobs for 30 payloads`);
      const jobs = await getQueue("ingest", own).getJobs(["wait"]);
      const total = jobs.reduce(
        (n, j) => n + (isGroupJob("ingest", j.name) ? parseGroupPayloads("ingest", j.data).payloads.length : 1),
        0,
      );
      assert.equal(total, 33);
    } finally {
      await deleteKeys(connection, prefix);
    }
  });

  it("a failed add rejects every payload of its group, and none of them is queued", async () => {
    const prefix = `${target.prefix}-failing`;
    const own: QueueTarget = { connection, prefix };
    try {
      const grouper = createJobGrouper("ingest", own, { maxDelayMs: 100, maxItems: 50 });
      // BullMQ numbers jobs with INCR on this key: a non-number there makes every add fail in Redis.
      const idKey = `${prefix}:ingest:id`;
      await connection.set(idKey, "not-a-number");
      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => grouper.add(batch(300 + i, 1))));
      assert.deepEqual(
        outcomes.map((o) => o.status),
        Array.from({ length: 6 }, () => "rejected"),
      );
      const reasons = new Set(outcomes.map((o) => String((o as PromiseRejectedResult).reason)));
      assert.equal(reasons.size, 1, "the same error for every payload of the group");
      await connection.del(idKey);
      assert.equal(await getQueue("ingest", own).count(), 0);
      // Once Redis takes adds again, the same payloads are queued.
      await Promise.all(Array.from({ length: 6 }, (_, i) => grouper.add(batch(300 + i, 1))));
      const jobs = await getQueue("ingest", own).getJobs(["wait"]);
      const total = jobs.reduce(
        (n, j) => n + (isGroupJob("ingest", j.name) ? parseGroupPayloads("ingest", j.data).payloads.length : 1),
        0,
      );
      assert.equal(total, 6);
    } finally {
      await deleteKeys(connection, prefix);
    }
  });
});
