import { hostname } from "node:os";
import { RPCPULSE_VERSION, type Logger } from "@rpcpulse/config";
import { createPrismaClient, createReadDatabase, createSqlPool } from "@rpcpulse/db/sql";
import {
  closeQueues,
  createRedisClient,
  QUEUE_NAMES,
  enqueueMaintenance,
  pingRedis,
  probeRegionQueueName,
  registerRecurringJobs,
  type QueueTarget,
} from "@rpcpulse/queue";
import {
  authorizeMetricsRequest,
  checkStorageReady,
  createPlatformMetrics,
  recordWorkerHeartbeat,
} from "@rpcpulse/services/platform";
import { createIngestWriter, createNetworkHeadTracker } from "@rpcpulse/services/ingest";
import type { Worker } from "bullmq";
import { readConsumerSettings, type ConsumedQueue, type WorkerEnv } from "./env.js";
import { createIngestProcessor } from "./processors/ingest.processor.js";
import { createMaintenanceProcessor } from "./processors/maintenance.processor.js";
import { createProbeProcessor, createRegionProbeProcessor } from "./processors/probe.processor.js";
import { startAdvisor } from "./start-advisor.js";
import { startAlerting } from "./start-alerting.js";
import { startHealthServer } from "./shell/health-server.js";
import { observeJobs } from "./shell/observe-jobs.js";
import { startHeartbeat } from "./shell/heartbeat.js";
import { registerProcessor } from "./shell/register-processor.js";
import { createShutdown, type ShutdownOutcome } from "./shell/shutdown.js";

export interface RunningWorker {
  id: string;
  healthPort: number;
  /** Consumers started, by queue name. */
  queues: ConsumedQueue[];
  /** Orderly stop: heartbeat → workers (in-flight jobs finish) → health server → PostgreSQL → Redis. */
  stop: (reason: string) => Promise<ShutdownOutcome>;
}

/**
 * Starts everything the worker process runs, from a parsed environment. The entry file only
 * loads the env, calls this and wires signals, so nothing here imports the entry (no cycle).
 */
export async function startWorker(env: WorkerEnv, rootLog: Logger): Promise<RunningWorker> {
  const startedAt = new Date();
  const host = hostname();
  const id = env.WORKER_ID ?? `${host}:${process.pid}`;
  const log = rootLog.child({ workerId: id });

  const redis = createRedisClient(
    { url: env.REDIS_URL, clusterNodes: env.REDIS_CLUSTER_NODES },
    { role: "worker", connectionName: `rpcpulse-worker-${id}` },
  );
  let redisDown = false;
  redis.on("error", (error: Error) => {
    if (!redisDown) log.warn({ err: error.message }, "redis connection error; reconnecting");
    redisDown = true;
  });
  redis.on("ready", () => {
    if (redisDown) log.info("redis connection restored");
    redisDown = false;
  });
  const sql = createSqlPool(env.DATABASE_URL, {
    max: 3 + env.INGEST_FLUSH_CONCURRENCY,
    connectionTimeoutMillis: 5_000,
    onError: (error) => log.warn({ err: error.message }, "postgres pool error"),
  });
  const prisma = createPrismaClient(env.DATABASE_URL);
  const target: QueueTarget = { connection: redis, prefix: env.QUEUE_PREFIX };
  const replica = createReadDatabase(
    { sql, prisma },
    {
      url: env.DATABASE_READ_URL,
      maxLagMs: env.DATABASE_READ_MAX_LAG_MS,
      maxLagBytes: env.DATABASE_READ_MAX_LAG_BYTES,
      checkIntervalMs: env.DATABASE_READ_CHECK_INTERVAL_MS,
      poolMax: 1,
    },
  );
  const metrics = createPlatformMetrics("worker");
  // Its own region's probe queue too: a region whose rounds pile up shows here.
  metrics.watchQueues(target, [...QUEUE_NAMES, { name: "probe", instance: env.PROBE_REGION }]);
  metrics.watchReplica(replica.status);

  try {
    const mode = await checkStorageReady({ sql });
    log.info(
      { storageMode: mode },
      mode === "timescale"
        ? "storage mode timescale: TimescaleDB policies handle partitions, retention and rollups"
        : "storage mode plain: the worker runs storage maintenance on the maintenance queue",
    );
  } catch (error) {
    log.error(
      { err: error instanceof Error ? error.message : String(error) },
      "database not ready at start; /healthz reports it",
    );
  }

  const workers: Worker[] = [];
  const queues: ConsumedQueue[] = [];
  const maintenance = readConsumerSettings(env, "maintenance");
  if (maintenance.enabled) {
    workers.push(
      registerProcessor(
        "maintenance",
        createMaintenanceProcessor(
          { sql },
          { statusUptime: { maxRefs: env.STATUS_UPTIME_MAX_REFS, batchSize: env.STATUS_UPTIME_BATCH_SIZE } },
        ),
        { target, log, ...maintenance },
      ),
    );
    queues.push("maintenance");
  } else log.info({ queue: "maintenance" }, "consumer disabled by WORKER_MAINTENANCE_ENABLED");

  const ingest = readConsumerSettings(env, "ingest");
  const ingestWriter = createIngestWriter(
    { pool: sql },
    {
      maxSamples: env.INGEST_FLUSH_MAX_SAMPLES,
      maxDelayMs: env.INGEST_FLUSH_MAX_DELAY_MS,
      maxConcurrentFlushes: env.INGEST_FLUSH_CONCURRENCY,
      networkHeads: createNetworkHeadTracker({ sql }),
      onFlush: (stats) => {
        metrics.observeFlush(stats.samples, stats.durationMs / 1000);
        log.debug(stats, "ingest flush");
      },
      onBackgroundError: (error) =>
        log.debug({ err: error instanceof Error ? error.message : String(error) }, "network heads not refreshed"),
    },
  );
  if (ingest.enabled) {
    workers.push(
      registerProcessor(
        "ingest",
        createIngestProcessor(
          { writer: ingestWriter, sql },
          { baseMs: env.INGEST_DB_RETRY_BASE_MS, maxMs: env.INGEST_DB_RETRY_MAX_MS },
        ),
        { target, log, ...ingest },
      ),
    );
    queues.push("ingest");
  } else log.info({ queue: "ingest" }, "consumer disabled by WORKER_INGEST_ENABLED");

  const probe = readConsumerSettings(env, "probe");
  // Region queues this worker consumes, listed in its heartbeat: the registry rounds are fanned out by.
  const regionQueues: string[] = [];
  if (probe.enabled) {
    const processor = createProbeProcessor(
      { pool: sql, target },
      {
        allowPrivate: env.PROBE_ALLOW_PRIVATE,
        onlyPrivate: env.PROBE_ONLY_PRIVATE,
        concurrency: env.PROBE_CONCURRENCY,
        timeoutMs: env.PROBE_TIMEOUT_MS,
        intervalMs: env.PROBE_INTERVAL_MS,
        jitter: env.PROBE_JITTER,
        capabilityIntervalMs: env.PROBE_CAPABILITY_INTERVAL_MS,
        region: env.PROBE_REGION,
        regionTtlMs: env.PROBE_REGION_TTL_MS,
        regionQuorumShare: env.DIRECTORY_REGION_QUORUM_SHARE,
      },
    );
    workers.push(registerProcessor("probe", processor, { target, log, ...probe }));
    const regional = createRegionProbeProcessor(
      { pool: sql },
      {
        allowPrivate: env.PROBE_ALLOW_PRIVATE,
        onlyPrivate: env.PROBE_ONLY_PRIVATE,
        concurrency: env.PROBE_CONCURRENCY,
        timeoutMs: env.PROBE_TIMEOUT_MS,
        intervalMs: env.PROBE_INTERVAL_MS,
        jitter: env.PROBE_JITTER,
        region: env.PROBE_REGION,
        localAddress: env.PROBE_LOCAL_ADDRESS,
      },
    );
    workers.push(registerProcessor("probe", regional, { target, log, ...probe, instance: env.PROBE_REGION }));
    queues.push("probe");
    regionQueues.push(probeRegionQueueName(env.PROBE_REGION));
  } else log.info({ queue: "probe" }, "consumer disabled by WORKER_PROBE_ENABLED");

  const alerting = startAlerting(env, { prisma, sql, target, log });
  workers.push(...alerting.workers);
  queues.push(...alerting.queues);

  const advisor = startAdvisor(env, { prisma, sql, target, log });
  workers.push(...advisor.workers);
  queues.push(...advisor.queues);

  // Idempotent across replicas; not awaited so a Redis outage at start does not block /healthz.
  const schedules = env.WORKER_REGISTER_SCHEDULES
    ? registerRecurringJobs(target, {
        maintenanceEveryMs: env.MAINTENANCE_INTERVAL_MS,
        advisorEveryMs: env.ADVISOR_INTERVAL_MS,
        directory: {
          probeEveryMs: env.PROBE_INTERVAL_MS,
          capabilitiesEveryMs: env.PROBE_CAPABILITY_INTERVAL_MS,
          rankEveryMs: env.DIRECTORY_RANK_INTERVAL_MS,
          headsEveryMs: env.NETWORK_HEAD_INTERVAL_MS,
          publicHeadsEveryMs: env.PUBLIC_HEAD_INTERVAL_MS,
          producersEveryMs: env.PRODUCER_INTERVAL_MS,
        },
        alertsEveryMs: env.ALERT_EVALUATE_INTERVAL_MS,
        deliverySweepEveryMs: env.ALERT_DELIVERY_SWEEP_INTERVAL_MS,
        statusUptimeEveryMs: env.STATUS_UPTIME_INTERVAL_MS,
        sweepShards: env.SWEEP_SHARDS,
      }).then(
        (registered) => log.info(registered, "recurring jobs registered"),
        (error: unknown) =>
          log.error({ err: error instanceof Error ? error.message : String(error) }, "recurring jobs not registered"),
      )
    : Promise.resolve();
  // Status-page uptime days once at start too (an existing schedule would otherwise wait a full period).
  const startRuns = env.WORKER_REGISTER_SCHEDULES
    ? enqueueMaintenance(target, { task: "status-uptime" }).then(
        () => undefined,
        (error: unknown) =>
          log.error({ err: error instanceof Error ? error.message : String(error) }, "status uptime run not queued"),
      )
    : Promise.resolve();

  const heartbeat = startHeartbeat(
    () =>
      recordWorkerHeartbeat(
        { prisma },
        {
          id,
          role: env.WORKER_ROLE,
          hostname: host,
          pid: process.pid,
          version: RPCPULSE_VERSION,
          startedAt,
          queues: [...queues, ...regionQueues],
          now: new Date(),
        },
      ),
    { intervalMs: env.WORKER_HEARTBEAT_INTERVAL_MS, log },
  );

  observeJobs(workers, metrics.observeJob);
  const health = await startHealthServer({
    host: env.WORKER_HEALTH_HOST,
    port: env.WORKER_HEALTH_PORT,
    checks: {
      redis: () => pingRedis(redis, 1_000),
      postgres: () => checkStorageReady({ sql }).then(() => true),
    },
    info: { workerId: id, version: RPCPULSE_VERSION },
    details: () => ({ replica: replica.status() }),
    metrics: { authorize: (header) => authorizeMetricsRequest(header, env.METRICS_TOKEN), render: metrics.render },
  });
  log.info({ port: health.port, queues, version: RPCPULSE_VERSION }, "worker started");

  const stop = createShutdown(
    [
      { name: "stop heartbeat", run: () => heartbeat.stop() },
      {
        name: "close workers (in-flight jobs finish)",
        run: () => Promise.all(workers.map((w) => w.close())).then(() => undefined),
      },
      { name: "flush ingest writer", run: () => ingestWriter.close() },
      { name: "close SMTP pool", run: () => alerting.close() },
      { name: "close health server", run: () => health.close() },
      {
        name: "close postgres",
        run: () => Promise.all([replica.close(), prisma.$disconnect(), sql.end()]).then(() => undefined),
      },
      {
        name: "close redis",
        run: async () => {
          await Promise.race([Promise.all([schedules, startRuns]), new Promise((r) => setTimeout(r, 1_000))]);
          await closeQueues(redis);
          await redis.quit();
        },
      },
    ],
    { log, timeoutMs: env.WORKER_SHUTDOWN_TIMEOUT_MS },
  );
  return { id, healthPort: health.port, queues, stop };
}
