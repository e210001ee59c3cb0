import {
  databaseEnv,
  databaseReadEnv,
  loadEnvOrExit,
  loggingEnv,
  metricsEnv,
  parseEnv,
  redisEnv,
  runtimeEnv,
  secretsEnv,
  smtpEnv,
} from "@rpcpulse/config";
import { z } from "zod";

/**
 * The worker's one validated environment. Shared fragments (DATABASE_URL, REDIS_URL, QUEUE_PREFIX,
 * LOG_*) come from @rpcpulse/config; per-queue consumer settings come from `consumerEnv`.
 */
const flag = (fallback: "true" | "false") =>
  z
    .enum(["true", "false", "1", "0"])
    .default(fallback)
    .transform((v) => v === "true" || v === "1");

const milliseconds = (fallback: number, min: number) =>
  z.coerce.number().int().min(min).max(86_400_000).default(fallback);

/** Queues this worker has processors for; settings are read per queue. */
export const CONSUMED_QUEUES = ["maintenance", "ingest", "probe", "alerts", "notify", "advisor"] as const;
export type ConsumedQueue = (typeof CONSUMED_QUEUES)[number];

type Upper<Q extends string> = Uppercase<Q>;

/**
 * WORKER_<QUEUE>_ENABLED (consumer on/off), WORKER_<QUEUE>_CONCURRENCY, and an optional rate
 * limit WORKER_<QUEUE>_LIMIT_MAX jobs per WORKER_<QUEUE>_LIMIT_DURATION_MS.
 */
function consumerEnv<Q extends ConsumedQueue>(queue: Q, defaults: { concurrency: number }) {
  const key = queue.toUpperCase() as Upper<Q>;
  return {
    [`WORKER_${key}_ENABLED`]: flag("true").describe(`Run the ${queue} queue's consumer in this worker.`),
    [`WORKER_${key}_CONCURRENCY`]: z.coerce
      .number()
      .int()
      .min(1)
      .max(256)
      .default(defaults.concurrency)
      .describe(`${queue} jobs processed at once by this worker.`),
    [`WORKER_${key}_LIMIT_MAX`]: z.coerce
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        `Rate limit of the ${queue} queue: at most this many jobs per WORKER_${key}_LIMIT_DURATION_MS (unset: none).`,
      ),
    [`WORKER_${key}_LIMIT_DURATION_MS`]: milliseconds(1_000, 1).describe(`Window of WORKER_${key}_LIMIT_MAX.`),
  } as {
    [K in `WORKER_${Upper<Q>}_ENABLED`]: ReturnType<typeof flag>;
  } & {
    [K in `WORKER_${Upper<Q>}_CONCURRENCY` | `WORKER_${Upper<Q>}_LIMIT_DURATION_MS`]: z.ZodDefault<z.ZodCoercedNumber>;
  } & {
    [K in `WORKER_${Upper<Q>}_LIMIT_MAX`]: z.ZodOptional<z.ZodCoercedNumber>;
  };
}

export const workerEnvShape = {
  ...databaseEnv,
  // The worker reads and writes the primary; a configured replica is only watched (health, metrics).
  ...databaseReadEnv,
  ...metricsEnv,
  ...redisEnv,
  ...loggingEnv,
  ...runtimeEnv,
  /** Stable identity across restarts (e.g. the container name); default hostname:pid. */
  WORKER_ID: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/, "must be 1-128 of letters, digits, '.', '_', ':' or '-'")
    .optional(),
  WORKER_ROLE: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/)
    .default("worker")
    .describe("Label this worker reports in its heartbeat (health page), e.g. probes or ingest for split deployments."),
  WORKER_HEALTH_HOST: z.string().min(1).default("0.0.0.0").describe("Address of the /healthz and /metrics server."),
  /** 0 picks a free port (tests); the compose healthcheck uses the default. */
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65_535).default(3002),
  WORKER_HEARTBEAT_INTERVAL_MS: milliseconds(15_000, 100).describe(
    "How often this worker writes its heartbeat (WORKER_ID, role, version) for the health page.",
  ),
  /** Plain-PostgreSQL storage maintenance period: rollups of the last 3 h are refreshed each run, so keep it near a minute. */
  MAINTENANCE_INTERVAL_MS: milliseconds(60_000, 100),
  /**
   * Organization sweeps (alert evaluation, advisor sweep, status-page uptime) run as this many shard
   * jobs each, spread over the worker replicas (each shard on one replica at a time); 1 = one job.
   * Every replica that registers schedules must use the same value.
   */
  SWEEP_SHARDS: z.coerce.number().int().min(1).max(1_024).default(1),
  /** Register the recurring jobs at start (idempotent; every replica may do it). */
  WORKER_REGISTER_SCHEDULES: flag("true"),
  /** In-flight jobs get this long to finish on SIGTERM; keep it below the orchestrator's grace period. */
  WORKER_SHUTDOWN_TIMEOUT_MS: milliseconds(25_000, 100),
  ...consumerEnv("maintenance", { concurrency: 1 }),
  /** Status pages: finished uptime days of public pages' components are precomputed this often (maintenance queue). */
  STATUS_UPTIME_INTERVAL_MS: milliseconds(600_000, 1_000),
  /** Refs filled per run at most (in chunks of STATUS_UPTIME_BATCH_SIZE); the rest wait for the next run. */
  STATUS_UPTIME_MAX_REFS: z.coerce.number().int().min(1).max(2_000).default(500),
  STATUS_UPTIME_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(25)
    .describe("Uptime refs filled per chunk (see STATUS_UPTIME_MAX_REFS)."),
  // Many ingest jobs in flight let the writer coalesce their batches into one COPY per flush.
  ...consumerEnv("ingest", { concurrency: 48 }),
  /** Ingest write stage: flush at this many pending samples, or this long after the first. */
  INGEST_FLUSH_MAX_SAMPLES: z.coerce.number().int().min(1).max(100_000).default(5_000),
  INGEST_FLUSH_MAX_DELAY_MS: milliseconds(25, 0).describe(
    "Ingest write stage: flush this long after the first pending sample at the latest.",
  ),
  /** Flushes in flight at once (each holds one PostgreSQL connection). */
  INGEST_FLUSH_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /**
   * An ingest job that finds PostgreSQL away waits and tries again, for as long as the outage
   * lasts, without using up an attempt: first after this delay, doubling (±20 % jitter) up to the max.
   */
  INGEST_DB_RETRY_BASE_MS: milliseconds(1_000, 1),
  INGEST_DB_RETRY_MAX_MS: milliseconds(60_000, 1).describe(
    "Longest wait between tries of an ingest job while PostgreSQL is away (see INGEST_DB_RETRY_BASE_MS).",
  ),
  // Public endpoint directory: rounds, capability checks and ranking run as jobs on the probe queue.
  ...consumerEnv("probe", { concurrency: 2 }),
  /** Let the prober reach loopback/private/CGNAT targets (self-hosted, demo, tests with simnet). Metadata stays blocked. */
  PROBE_ALLOW_PRIVATE: flag("false"),
  /** Probe only endpoints whose host is a private/loopback IP literal (an air-gapped demo: skip public DNS). */
  PROBE_ONLY_PRIVATE: flag("false"),
  /** One probe round over every listed endpoint this often; starts spread over PROBE_JITTER of it. */
  PROBE_INTERVAL_MS: milliseconds(30_000, 1_000),
  PROBE_JITTER: z.coerce
    .number()
    .min(0)
    .max(0.9)
    .default(0.5)
    .describe("Fraction of PROBE_INTERVAL_MS over which a round's probe starts are spread."),
  /** Probes in flight at once within a round. */
  PROBE_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(32),
  PROBE_TIMEOUT_MS: milliseconds(10_000, 100).describe("One probe request's time limit."),
  PROBE_CAPABILITY_INTERVAL_MS: milliseconds(1_800_000, 1_000).describe(
    "How often each listed endpoint's capabilities (methods, archive, websocket) are checked.",
  ),
  DIRECTORY_RANK_INTERVAL_MS: milliseconds(60_000, 1_000).describe("How often the directory ranking is recomputed."),
  /** How often every network's consensus head is decided and stored (network_heads); lag is measured against it. */
  NETWORK_HEAD_INTERVAL_MS: milliseconds(10_000, 1_000),
  /** How often the public URL of every node that has one is checked (public head vs node head). */
  PUBLIC_HEAD_INTERVAL_MS: milliseconds(30_000, 1_000),
  /** How often registered block producers (Hive/Steem witnesses) are read: a miss is seen within this. */
  PRODUCER_INTERVAL_MS: milliseconds(15_000, 1_000),
  // Tuning advisor: one recurring sweep evaluates nodes with new samples and verifies applied suggestions.
  ...consumerEnv("advisor", { concurrency: 1 }),
  /** Sweep period (the advisor job); each run evaluates at most ADVISOR_BATCH_SIZE nodes with new samples. */
  ADVISOR_INTERVAL_MS: milliseconds(60_000, 1_000),
  ADVISOR_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(200)
    .describe("Nodes with new samples evaluated per advisor sweep at most."),
  /** Applied suggestions verified per run at most. */
  ADVISOR_VERIFY_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(100),
  /** Telemetry window each evaluation reads, ending now (minutes). */
  ADVISOR_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1_440).default(30),
  /** An open suggestion whose condition is absent this long is closed automatically (minutes). */
  ADVISOR_CLEAR_MINUTES: z.coerce.number().int().min(1).max(10_080).default(30),
  /** Override of every rule's before/after window (minutes); unset = each rule's own minimum. Demo/e2e use 1-2. */
  ADVISOR_VERIFY_WINDOW_MINUTES: z.coerce.number().int().min(1).max(10_080).optional(),
  // Alerting: rule evaluation (alerts queue, recurring) and deliveries (notify queue).
  ...secretsEnv,
  ...consumerEnv("alerts", { concurrency: 1 }),
  ...consumerEnv("notify", { concurrency: 8 }),
  /** Every rule of every organization is evaluated this often. */
  ALERT_EVALUATE_INTERVAL_MS: milliseconds(30_000, 1_000),
  /**
   * Delivery outbox sweeper: this often, queue up to ALERT_DELIVERY_SWEEP_BATCH delivery rows that
   * were committed but never queued (crash between the two steps, Redis away), older than the grace.
   */
  ALERT_DELIVERY_SWEEP_INTERVAL_MS: milliseconds(30_000, 100),
  ALERT_DELIVERY_SWEEP_GRACE_MS: milliseconds(30_000, 0).describe(
    "Delivery outbox sweeper: only rows older than this are queued again.",
  ),
  ALERT_DELIVERY_SWEEP_BATCH: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(500)
    .describe("Delivery outbox sweeper: rows queued per run at most."),
  /** Fault injection for the outbox test only: SIGKILL this worker after delivery rows are committed, before they are queued. */
  WORKER_FAULT_KILL_AFTER_DELIVERY_COMMIT: flag("false"),
  /** Public origin of the web app, for links in notifications (optional). */
  APP_BASE_URL: z
    .url()
    .refine((v) => v.startsWith("http://") || v.startsWith("https://"), "must be an http(s) URL")
    .optional(),
  // The SMTP relay for email channels and status-page mail (SMTP_URL, SMTP_FROM, SMTP_REQUIRE_TLS, ...).
  ...smtpEnv,
  /** Let webhook/Slack/Discord/Telegram deliveries reach loopback/private addresses (self-hosted, demo, tests). */
  NOTIFY_ALLOW_PRIVATE: flag("false"),
  NOTIFY_TIMEOUT_MS: milliseconds(10_000, 100).describe(
    "Time limit of one notification delivery (webhook, chat, SMTP).",
  ),
  /** Telegram Bot API base (tests and air-gapped demos point it at a local receiver). */
  TELEGRAM_API_BASE: z
    .url()
    .refine((v) => v.startsWith("http://") || v.startsWith("https://"), "must be an http(s) URL")
    .default("https://api.telegram.org"),
  PROBE_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/)
    .default("local")
    .describe(
      "This worker's probe region: it consumes the region's own probe queue (probe.<region>) and labels its probes server:<region>. Every region's workers probe every listed endpoint each round.",
    ),
  PROBE_LOCAL_ADDRESS: z
    .union([z.ipv4(), z.ipv6()])
    .optional()
    .describe(
      "Source IP address of this worker's probe rounds (a host with one egress address per region); unset = the system's choice.",
    ),
  PROBE_REGION_TTL_MS: milliseconds(90_000, 1_000).describe(
    "A region gets probe rounds while one of its workers' heartbeats is newer than this (keep it above WORKER_HEARTBEAT_INTERVAL_MS).",
  ),
  DIRECTORY_REGION_QUORUM_SHARE: z.coerce
    .number()
    .min(0)
    .max(0.99)
    .default(0.5)
    .describe(
      "Several probe regions: an endpoint's overall status, listing status and consensus-head vote need more than this share of the regions reporting it to agree (0.5 = strict majority; 0 = any one region).",
    ),
};

export type WorkerEnv = z.infer<z.ZodObject<typeof workerEnvShape>>;

export interface ConsumerSettings {
  enabled: boolean;
  concurrency: number;
  limiter: { max: number; duration: number } | undefined;
}

export function readConsumerSettings(env: WorkerEnv, queue: ConsumedQueue): ConsumerSettings {
  const key = queue.toUpperCase() as Upper<ConsumedQueue>;
  const max = env[`WORKER_${key}_LIMIT_MAX`];
  return {
    enabled: env[`WORKER_${key}_ENABLED`],
    concurrency: env[`WORKER_${key}_CONCURRENCY`],
    limiter: max === undefined ? undefined : { max, duration: env[`WORKER_${key}_LIMIT_DURATION_MS`] },
  };
}

/** Parse a given source (tests); throws AppError("CONFIG") naming each bad variable. */
export function parseWorkerEnv(source: Record<string, string | undefined>): WorkerEnv {
  return parseEnv(workerEnvShape, source);
}

/** For the entry point: parse process.env or print the bad variables and exit(1). */
export function loadWorkerEnv(): WorkerEnv {
  return loadEnvOrExit(workerEnvShape, "rpcpulse-worker");
}
