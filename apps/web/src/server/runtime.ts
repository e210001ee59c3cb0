import { createAuth, type Auth } from "@rpcpulse/auth";
import { createLogger, type Logger } from "@rpcpulse/config";
import { createMailer, type Mailer } from "@rpcpulse/notify";
import {
  createPrismaClient,
  createReadDatabase,
  createSqlPool,
  type PrismaClient,
  type ReadDatabase,
  type SqlPool,
} from "@rpcpulse/db/sql";
import { createRedisClient, QUEUE_NAMES, type RedisConnection } from "@rpcpulse/queue";
import { createPlatformMetrics, type PlatformMetrics } from "@rpcpulse/services/platform";
import { statusSnapshotCacheStats } from "@rpcpulse/services/snapshot-cache";
import { getEnv, type WebEnv } from "@/env.js";

/** Process-wide singletons, created on first use (kept on globalThis so dev reloads reuse them). */
interface Runtime {
  env: WebEnv;
  logger: Logger;
  prisma: PrismaClient;
  auth: Auth;
  /** The SMTP relay (SMTP_URL) for account mail; null when none is configured. */
  mailer: Mailer | null;
  redis: RedisConnection;
  /** Small pool for the raw-SQL functions of @rpcpulse/db (storage mode, time series). */
  sql: SqlPool;
  /**
   * Reads that may lag a little (dashboards, the public directory API, status pages): the replica
   * (DATABASE_READ_URL) while it is healthy, else the primary. Writes, auth and reads right after a
   * mutation use `prisma`/`sql` (the primary).
   */
  reads: ReadDatabase;
  /** Platform metrics of this process (GET /metrics, bearer METRICS_TOKEN). */
  metrics: PlatformMetrics;
}

const holder = globalThis as typeof globalThis & { __rpcpulseWebRuntime?: Runtime };

export function getRuntime(): Runtime {
  if (holder.__rpcpulseWebRuntime) return holder.__rpcpulseWebRuntime;
  const env = getEnv();
  const logger = createLogger({ name: "web", level: env.LOG_LEVEL, format: env.LOG_FORMAT });
  const prisma = createPrismaClient(env.DATABASE_URL);
  const mailer = env.SMTP_URL
    ? createMailer({
        url: env.SMTP_URL,
        from: env.SMTP_FROM,
        requireTls: env.SMTP_REQUIRE_TLS,
        rejectUnauthorized: env.SMTP_TLS_REJECT_UNAUTHORIZED,
        maxConnections: 2,
      })
    : null;
  const auth = createAuth({
    mailer,
    prisma,
    baseUrl: env.APP_BASE_URL,
    secret: env.BETTER_AUTH_SECRET,
    demoMode: env.DEMO_MODE,
    logger,
    trustedProxies: env.TRUSTED_PROXIES,
  });
  const redis = createRedisClient(
    { url: env.REDIS_URL, clusterNodes: env.REDIS_CLUSTER_NODES },
    { role: "producer", connectionName: "rpcpulse-web" },
  );
  redis.on("error", (error: Error) => logger.warn({ err: error.message }, "redis connection error"));
  const sql = createSqlPool(env.DATABASE_URL, {
    max: 5,
    connectionTimeoutMillis: 2_000,
    onError: (error) => logger.warn({ err: error.message }, "postgres pool error"),
  });
  const reads = createReadDatabase(
    { prisma, sql },
    {
      url: env.DATABASE_READ_URL,
      maxLagMs: env.DATABASE_READ_MAX_LAG_MS,
      maxLagBytes: env.DATABASE_READ_MAX_LAG_BYTES,
      checkIntervalMs: env.DATABASE_READ_CHECK_INTERVAL_MS,
      onChange: (status) =>
        logger.warn(status, status.serving === "replica" ? "reads back on the replica" : "reads on the primary"),
    },
  );
  const metrics = createPlatformMetrics("web");
  metrics.watchQueues({ connection: redis, prefix: env.QUEUE_PREFIX }, QUEUE_NAMES);
  metrics.watchReplica(reads.status);
  metrics.watchCache("status_snapshots", statusSnapshotCacheStats);
  holder.__rpcpulseWebRuntime = { env, logger, prisma, auth, mailer, redis, sql, reads, metrics };
  return holder.__rpcpulseWebRuntime;
}
