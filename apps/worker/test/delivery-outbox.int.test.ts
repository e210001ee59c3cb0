// The delivery outbox with real worker processes, the real Redis (own prefix) and PostgreSQL (own
// database): a worker is killed (SIGKILL, by its fault-injection hook) after an alert's delivery
// row is committed and before its notify job is queued; two new workers' sweepers find the row and
// the webhook receives the notification exactly once.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createTestDatabase, createTestOrg, type TestDatabase, waitFor } from "@rpcpulse/db/testing";
import { startHttpReceiver } from "@rpcpulse/notify/testing";
import { closeQueues, createRedisConnection, getQueue, type QueueTarget, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { createAlertChannel, createAlertRule, deriveSecretsKey } from "@rpcpulse/services/alerting";
import { enrollNode } from "@rpcpulse/services/fleet";
import { type ServiceContext } from "@rpcpulse/services/context";

const workerDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SECRETS = "outbox-test-secrets-key-0123456789abcdef";
const ORG = "org-outbox";

describe("delivery outbox: a worker killed between commit and enqueue (real processes)", () => {
  let db: TestDatabase;
  let redis: Redis;
  let target: QueueTarget;
  let hook: Awaited<ReturnType<typeof startHttpReceiver>>;
  const workers: { proc: ChildProcess; log: () => string }[] = [];

  const startWorker = (name: string, extra: Record<string, string>) => {
    let log = "";
    const proc = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: workerDir,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: target.prefix,
        SECRETS_ENCRYPTION_KEY: SECRETS,
        WORKER_ID: `${name}-${target.prefix}`,
        WORKER_HEALTH_HOST: "127.0.0.1",
        WORKER_HEALTH_PORT: "0",
        WORKER_REGISTER_SCHEDULES: "true",
        WORKER_MAINTENANCE_ENABLED: "false",
        WORKER_INGEST_ENABLED: "false",
        WORKER_PROBE_ENABLED: "false",
        WORKER_ADVISOR_ENABLED: "false",
        WORKER_HEARTBEAT_INTERVAL_MS: "60000",
        ALERT_EVALUATE_INTERVAL_MS: "1000",
        NOTIFY_ALLOW_PRIVATE: "true",
        LOG_LEVEL: "warn",
        ...extra,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stdout?.on("data", (d: Buffer) => (log += d.toString()));
    proc.stderr?.on("data", (d: Buffer) => (log += d.toString()));
    const handle = { proc, log: () => log };
    workers.push(handle);
    return handle;
  };

  before(async () => {
    db = await createTestDatabase();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker", connectionName: "outbox-test" });
    target = { connection: redis, prefix: uniquePrefix() };
    hook = await startHttpReceiver(() => 200);
  });

  after(async () => {
    for (const { proc } of workers) {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill("SIGTERM");
        await once(proc, "exit");
      }
    }
    await hook?.close();
    await closeQueues(redis);
    await deleteKeys(redis, target.prefix);
    await redis.quit();
    await db.drop();
  });

  it("the committed, never-queued delivery is found by the sweepers and sent once", async () => {
    await createTestOrg(db, { id: ORG, name: "Outbox" });
    const ctx: ServiceContext = { userId: "u-outbox", organizationId: ORG, organizationSlug: ORG, role: "owner" };
    const deps = { prisma: db.prisma, sql: db.pool, queue: target, secretsKey: deriveSecretsKey(SECRETS) };
    const { node } = await enrollNode(deps, ctx, {
      network: "hive",
      apiFamily: "hive",
      clientName: "hived",
      name: "silent-node",
      localRpcUrl: "http://127.0.0.1:8091",
    });
    // Silent for an hour: node_down fires on the first evaluation.
    await db.prisma.node.update({ where: { id: node.id }, data: { lastSeenAt: new Date(Date.now() - 3_600_000) } });
    const channel = await createAlertChannel(deps, ctx, { name: "hook", type: "webhook", url: `${hook.url}/outbox` });
    await createAlertRule(deps, ctx, {
      name: "Node silent",
      type: "node_down",
      target: `node:${node.id}`,
      threshold: 60,
      forSeconds: 0,
      channelIds: [channel.channel.id],
    });

    // 1. The worker evaluates, commits the transition with its delivery row, and dies (SIGKILL).
    const doomed = startWorker("doomed", {
      WORKER_FAULT_KILL_AFTER_DELIVERY_COMMIT: "true",
      // Its own sweeper would run only after a minute: the crash comes first.
      ALERT_DELIVERY_SWEEP_INTERVAL_MS: "60000",
    });
    let killTimer: NodeJS.Timeout | undefined;
    const [, signal] = (await Promise.race([
      once(doomed.proc, "exit"),
      new Promise((_, reject) => {
        killTimer = setTimeout(() => reject(new Error(`worker not killed:\n${doomed.log()}`)), 30_000);
      }),
    ]).finally(() => clearTimeout(killTimer))) as [number | null, NodeJS.Signals | null];
    assert.equal(signal, "SIGKILL");
    const rows = await db.prisma.delivery.findMany({ where: { organizationId: ORG } });
    assert.equal(rows.length, 1, "one delivery row committed");
    const delivery = rows[0]!;
    assert.equal(delivery.status, "queued");
    assert.equal(delivery.queuedAt, null, "never queued");
    const notify = getQueue("notify", target);
    assert.equal(await notify.getJob(`delivery-${delivery.id}`), undefined, "no notify job");
    assert.equal(hook.requests.length, 0);

    // 2. Two new workers (no fault): their sweepers both see the row; the job id makes it one send.
    const sweepEnv = { ALERT_DELIVERY_SWEEP_INTERVAL_MS: "300", ALERT_DELIVERY_SWEEP_GRACE_MS: "0" };
    startWorker("sweeper-a", sweepEnv);
    startWorker("sweeper-b", sweepEnv);
    const sent = await waitFor(
      "the delivery sent",
      async () => {
        const row = await db.prisma.delivery.findUnique({ where: { id: delivery.id } });
        return row?.status === "sent" ? row : undefined;
      },
      30_000,
    );
    assert.ok(sent.queuedAt, "marked queued by a sweeper");
    assert.equal(sent.attempts, 1);
    // Let several more sweeps and evaluations run: still exactly one request.
    await new Promise((r) => setTimeout(r, 2_500));
    const posts = hook.requests.filter((r) => r.path === "/outbox");
    assert.equal(posts.length, 1, `webhook requests: ${posts.length}`);
    assert.match(posts[0]!.body, /Node silent|silent-node/);
    assert.equal(await db.prisma.delivery.count({ where: { organizationId: ORG } }), 1, "no second delivery row");
    const job = await notify.getJob(`delivery-${delivery.id}`);
    assert.equal(await job?.getState(), "completed");
  });
});
