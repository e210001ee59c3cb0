// The advisor job end to end inside the worker: the recurring sweep finds a node with fresh,
// flooded samples and opens the suggestion; a node without new samples is skipped.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Writable } from "node:stream";
import { createLogger } from "@rpcpulse/config";
import { insertNodeSamples, insertRemoteIps } from "@rpcpulse/db/fleet";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase, waitFor } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, getQueue, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { parseWorkerEnv } from "../src/env.js";
import { startWorker, type RunningWorker } from "../src/start-worker.js";

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: createLogger({ name: "worker", level: "info", destination }) };
}

describe("advisor job in the worker (PostgreSQL + Redis)", () => {
  let db: TestDatabase;
  let redis: Redis;
  let prefix: string;
  let worker: RunningWorker | undefined;
  const captured = captureLogger();
  const nodes: Record<"flooded" | "calm" | "idle", string> = { flooded: "", calm: "", idle: "" };

  before(async () => {
    db = await createTestDatabase();
    prefix = uniquePrefix();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    await createTestOrg(db, { id: "org-w", name: "w" });
    // createTestNode's defaults are the hive node the sweep reads: hive, hived, http://127.0.0.1:8091.
    for (const name of Object.keys(nodes) as (keyof typeof nodes)[])
      nodes[name] = (await createTestNode(db, { organizationId: "org-w", name })).id;
    const now = Date.now();
    for (const [name, top] of [
      ["flooded", 150],
      ["calm", 2],
    ] as const) {
      const times = Array.from({ length: 12 }, (_, i) => new Date(now - (12 - i) * 5_000));
      await insertNodeSamples(
        db.sql,
        times.map((time) => ({ time, nodeId: nodes[name], tcpEstablished: top + 5 })),
      );
      await insertRemoteIps(
        db.sql,
        times.flatMap((time) => [
          { time, nodeId: nodes[name], ip: "127.0.0.77", conns: top },
          { time, nodeId: nodes[name], ip: "127.0.0.1", conns: 2 },
        ]),
      );
    }
  });

  after(async () => {
    await worker?.stop("test end");
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  it("registers the sweep and opens the flood suggestion only where the data shows one", async () => {
    const env = parseWorkerEnv({
      DATABASE_URL: db.url,
      REDIS_URL: SHARED_REDIS_URL,
      QUEUE_PREFIX: prefix,
      WORKER_HEALTH_HOST: "127.0.0.1",
      WORKER_HEALTH_PORT: "0",
      WORKER_INGEST_ENABLED: "false",
      WORKER_PROBE_ENABLED: "false",
      ADVISOR_INTERVAL_MS: "1000",
      ADVISOR_WINDOW_MINUTES: "5",
    });
    worker = await startWorker(env, captured.log);
    assert.ok(worker.queues.includes("advisor"));
    const schedulers = await waitFor(
      "the advisor scheduler",
      async () => {
        const list = await getQueue("advisor", { connection: redis, prefix }).getJobSchedulers();
        return list.length > 0 ? list : undefined;
      },
      20_000,
    );
    assert.deepEqual(
      schedulers.map((s) => [s.key, Number(s.every)]),
      [["advisor-sweep", 1_000]],
    );
    const suggestion = await waitFor(
      "the flood suggestion",
      () => db.prisma.suggestion.findFirst({ where: { nodeId: nodes.flooded } }).then((r) => r ?? undefined),
      20_000,
    );
    assert.equal(suggestion.ruleId, "connection-flood");
    assert.equal(suggestion.state, "open");
    assert.equal(suggestion.organizationId, "org-w");
    const cursors = await waitFor(
      "cursors of both nodes with samples",
      async () => {
        const rows = await db.prisma.advisorNodeCursor.findMany();
        return rows.length === 2 ? rows : undefined;
      },
      20_000,
    );
    // The node without samples is never evaluated; the calm one has nothing to say.
    assert.ok(!cursors.some((c) => c.nodeId === nodes.idle));
    assert.equal(await db.prisma.suggestion.count({ where: { nodeId: nodes.calm } }), 0);
    // A later sweep without new samples skips them (the cursor does not move).
    const before = cursors.find((c) => c.nodeId === nodes.flooded)!.evaluatedAt;
    await new Promise((r) => setTimeout(r, 2_500));
    const again = await db.prisma.advisorNodeCursor.findUniqueOrThrow({ where: { nodeId: nodes.flooded } });
    assert.equal(again.evaluatedAt.getTime(), before.getTime());
    assert.ok(captured.lines.some((l) => l.msg === "advisor sweep done"));
  });
});
