import { timingSafeEqual, createHash } from "node:crypto";
import type { ReadReplicaStatus } from "@rpcpulse/db/sql";
import { getQueue, instanceQueueName, type QueueName, type QueueTarget } from "@rpcpulse/queue";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The platform's own metrics (Prometheus text, prom-client): one registry per process, labelled with
 * the app (web, ingest, worker). Request, job and flush metrics are observed where they happen;
 * queue depths, replica lag and cache hit counts are read at scrape time from the sources given to
 * `watch*`. Names are the contract with infra/grafana's "RPC Pulse itself" dashboard (a test checks
 * every panel's metric against a real scrape).
 */
export type MetricsApp = "web" | "ingest" | "worker";

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const FLUSH_ROW_BUCKETS = [1, 10, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000];
const QUEUE_STATES = ["waiting", "active", "delayed", "prioritized", "failed"] as const;

export interface PlatformMetrics {
  registry: Registry;
  /** One HTTP request answered: route is a template (`/v1/ingest`, `/api/orgs/[orgId]/nodes`), never a raw path. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** One job attempt ended: completed, failed (will retry or not) or deferred (put back, no attempt used). */
  observeJob(queue: string, outcome: "completed" | "failed" | "deferred", seconds: number, permanent?: boolean): void;
  /** One ingest flush (COPY) committed. */
  observeFlush(rows: number, seconds: number): void;
  /** Queue depths and the age of each queue's oldest waiting job, read at scrape time. */
  watchQueues(target: QueueTarget, queues: readonly WatchedQueue[]): void;
  /** Replica lag and where reads go, read at scrape time. */
  watchReplica(status: () => ReadReplicaStatus): void;
  /** A cache's cumulative hit and miss counts, read at scrape time. */
  watchCache(cache: string, stats: () => { hits: number; misses: number }): void;
  /** The exposition: Prometheus text format 0.0.4. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** A catalog queue, or one instance of it (a region's probe queue: `{ name: "probe", instance: "eu" }`). */
export type WatchedQueue = QueueName | { name: QueueName; instance: string };

export function createPlatformMetrics(app: MetricsApp, options: { perProcess?: boolean } = {}): PlatformMetrics {
  const registry = new Registry();
  // perProcess: several processes answer on one port (ingest's node:cluster workers); a scrape reaches
  // one of them, so each keeps its own series (label pid) instead of one series jumping between them.
  registry.setDefaultLabels(options.perProcess ? { app, pid: String(process.pid) } : { app });
  collectDefaultMetrics({ register: registry, prefix: "rpcpulse_" });

  const requests = new Counter({
    name: "rpcpulse_http_requests_total",
    help: "HTTP requests answered, by route template, method and status code.",
    labelNames: ["route", "method", "status"],
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: "rpcpulse_http_request_duration_seconds",
    help: "HTTP request duration from arrival to the last byte written, by route template.",
    labelNames: ["route"],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: "rpcpulse_job_duration_seconds",
    help: "Job attempt duration by queue and outcome (completed, failed, deferred).",
    labelNames: ["queue", "outcome"],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: "rpcpulse_job_failures_total",
    help: "Failed job attempts by queue; permanent=true when no retry follows.",
    labelNames: ["queue", "permanent"],
    registers: [registry],
  });
  const flushRows = new Histogram({
    name: "rpcpulse_ingest_flush_rows",
    help: "Samples written per ingest flush (one COPY of coalesced batches).",
    buckets: FLUSH_ROW_BUCKETS,
    registers: [registry],
  });
  const flushSeconds = new Histogram({
    name: "rpcpulse_ingest_flush_duration_seconds",
    help: "Duration of one ingest flush, from start to commit.",
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });

  const queueSources: Array<{ target: QueueTarget; queues: readonly WatchedQueue[] }> = [];
  const readQueues = async () => {
    const depths: Array<{ queue: string; state: string; value: number }> = [];
    const ages: Array<{ queue: string; value: number }> = [];
    for (const { target, queues } of queueSources) {
      await Promise.all(
        queues.map(async (watched) => {
          const [base, instance] = typeof watched === "string" ? [watched] : [watched.name, watched.instance];
          const name = instanceQueueName(base, instance);
          const queue = getQueue(base, target, instance);
          const [counts, oldest] = await Promise.all([queue.getJobCounts(...QUEUE_STATES), queue.getWaiting(-1, -1)]);
          for (const state of QUEUE_STATES) depths.push({ queue: name, state, value: counts[state] ?? 0 });
          const first = oldest[0];
          ages.push({ queue: name, value: first ? Math.max(0, (Date.now() - first.timestamp) / 1000) : 0 });
        }),
      );
    }
    return { depths, ages };
  };
  let pendingRead: Promise<Awaited<ReturnType<typeof readQueues>>> | null = null;
  const queueRead = () => {
    // Both gauges collect from one read per scrape.
    pendingRead ??= readQueues().finally(() => setTimeout(() => (pendingRead = null), 0));
    return pendingRead;
  };
  new Gauge({
    name: "rpcpulse_queue_jobs",
    help: "Jobs in each queue by state, read from Redis at scrape time.",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      if (queueSources.length === 0) return;
      this.reset();
      const { depths } = await queueRead().catch(() => ({ depths: [] }));
      for (const d of depths) this.set({ queue: d.queue, state: d.state }, d.value);
    },
  });
  new Gauge({
    name: "rpcpulse_queue_oldest_waiting_age_seconds",
    help: "Age of the oldest waiting job of each queue (0 when none waits).",
    labelNames: ["queue"],
    registers: [registry],
    async collect() {
      if (queueSources.length === 0) return;
      this.reset();
      const { ages } = await queueRead().catch(() => ({ ages: [] }));
      for (const a of ages) this.set({ queue: a.queue }, a.value);
    },
  });

  let replica: (() => ReadReplicaStatus) | undefined;
  new Gauge({
    name: "rpcpulse_db_replica_lag_seconds",
    help: "Replay lag of the read replica (DATABASE_READ_URL) at its last check; absent without one.",
    registers: [registry],
    collect() {
      this.reset();
      const lag = replica?.().lagMs;
      if (typeof lag === "number") this.set(lag / 1000);
    },
  });
  new Gauge({
    name: "rpcpulse_db_replica_lag_bytes",
    help: "WAL bytes the read replica has not replayed yet, at its last check.",
    registers: [registry],
    collect() {
      this.reset();
      const lag = replica?.().lagBytes;
      if (typeof lag === "number") this.set(lag);
    },
  });
  new Gauge({
    name: "rpcpulse_db_reads_on_replica",
    help: "1 while reads go to the read replica, 0 while they go to the primary (none configured, down or lagging).",
    registers: [registry],
    collect() {
      this.set(replica?.().serving === "replica" ? 1 : 0);
    },
  });

  const caches = new Map<string, () => { hits: number; misses: number }>();
  new Counter({
    name: "rpcpulse_cache_requests_total",
    help: "Cache reads by cache and result (hit, miss).",
    labelNames: ["cache", "result"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [cache, stats] of caches) {
        const { hits, misses } = stats();
        this.inc({ cache, result: "hit" }, Math.max(0, hits));
        this.inc({ cache, result: "miss" }, Math.max(0, misses));
      }
    },
  });

  return {
    registry,
    observeRequest(route, method, status, seconds) {
      requests.inc({ route, method, status: String(status) });
      requestSeconds.observe({ route }, seconds);
    },
    observeJob(queue, outcome, seconds, permanent = false) {
      jobSeconds.observe({ queue, outcome }, seconds);
      if (outcome === "failed") jobFailures.inc({ queue, permanent: String(permanent) });
    },
    observeFlush(rows, seconds) {
      flushRows.observe(rows);
      flushSeconds.observe(seconds);
    },
    watchQueues(target, queues) {
      queueSources.push({ target, queues });
    },
    watchReplica(status) {
      replica = status;
    },
    watchCache(cache, stats) {
      caches.set(cache, stats);
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/**
 * GET /metrics access: only with `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time);
 * with no METRICS_TOKEN configured the endpoint is off (404), never open.
 */
export function authorizeMetricsRequest(
  authorization: string | null | undefined,
  token: string | undefined,
): "ok" | "disabled" | "unauthorized" {
  if (!token) return "disabled";
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  if (!presented) return "unauthorized";
  const digest = (v: string) => createHash("sha256").update(v).digest();
  return timingSafeEqual(digest(presented), digest(token)) ? "ok" : "unauthorized";
}
