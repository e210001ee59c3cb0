import { z } from "zod";
import { resolveFileVariables } from "./env-files.js";
import { AppError } from "./errors.js";

/**
 * Env fragments shared by the deployables. Each app composes the fragments it needs into
 * one schema and parses it once at start (`parseEnv`); nothing else reads process.env.
 */
export const databaseEnv = {
  DATABASE_URL: z
    .string()
    .url()
    .refine((v) => v.startsWith("postgres://") || v.startsWith("postgresql://"), "must be a postgres:// URL")
    .default("postgresql://postgres@127.0.0.1:5432/rpcpulse")
    .describe(
      "PostgreSQL connection URL (postgres:// or postgresql://); holds the password, so prefer DATABASE_URL_FILE.",
    ),
  /** auto: TimescaleDB when the extension is available, else plain PostgreSQL. */
  STORAGE_MODE: z
    .enum(["auto", "timescale", "plain"])
    .default("auto")
    .describe("auto: TimescaleDB when the extension is available, else plain PostgreSQL (decided on first migration)."),
};

/**
 * Optional read replica (PostgreSQL streaming replication). Dashboards, the public directory API
 * and status pages read from it while it is reachable and within the lag bounds; writes and
 * read-your-writes paths (right after a mutation, auth, ingest) stay on DATABASE_URL. A replica that
 * is down or behind past either bound is set aside (reads go to the primary, health says degraded)
 * until a later check finds it back within bounds.
 */
export const databaseReadEnv = {
  /** A streaming replica of DATABASE_URL for dashboard, directory and status-page reads; unset = reads on the primary. */
  DATABASE_READ_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .url()
      .refine((v) => v.startsWith("postgres://") || v.startsWith("postgresql://"), "must be a postgres:// URL")
      .optional(),
  ),
  /** Replay lag (now() - pg_last_xact_replay_timestamp() while WAL waits to be replayed) past this: reads go to the primary. */
  DATABASE_READ_MAX_LAG_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  /** WAL bytes the replica has not replayed yet (primary's current LSN minus its replay LSN) past this: same. */
  DATABASE_READ_MAX_LAG_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  /** How often the replica's reachability and lag are checked. */
  DATABASE_READ_CHECK_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
};

export const redisEnv = {
  REDIS_URL: z
    .string()
    .url()
    .refine((v) => v.startsWith("redis://") || v.startsWith("rediss://"), "must be a redis:// URL")
    .default("redis://127.0.0.1:6379")
    .describe("Redis URL (redis:// or rediss://) for the BullMQ queues, rate limits and caches."),
  /**
   * Seed nodes of a Redis Cluster, `host:port` comma-separated (e.g. `redis-1:6379,redis-2:6379`):
   * queues then run on the cluster (each queue hash-tagged onto one slot); REDIS_URL still gives the
   * credentials and TLS. Unset: the single Redis at REDIS_URL.
   */
  REDIS_CLUSTER_NODES: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^[A-Za-z0-9.\-_]+:\d{1,5}(,[A-Za-z0-9.\-_]+:\d{1,5})*$/, "must be host:port[,host:port...]")
      .transform((v) =>
        v.split(",").map((entry) => {
          const at = entry.lastIndexOf(":");
          return { host: entry.slice(0, at), port: Number(entry.slice(at + 1)) };
        }),
      )
      .optional(),
  ),
  /** Key prefix so several installs (or test runs) can share one Redis. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9:_-]+$/i)
    .default("rpcpulse")
    .describe("Redis key prefix, so several installs (or test runs) can share one Redis."),
};

/**
 * GET /metrics (Prometheus text) of web, ingest and worker: served only to `Authorization: Bearer
 * <METRICS_TOKEN>`; unset = the endpoint answers 404. Give Prometheus the same value.
 */
export const metricsEnv = {
  /** Bearer token Prometheus sends to GET /metrics (16+ characters); unset = /metrics answers 404. */
  METRICS_TOKEN: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().min(16, "must be at least 16 characters").max(256).optional(),
  ),
};

export const loggingEnv = {
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe("Minimum level written to the log."),
  LOG_FORMAT: z
    .enum(["json", "pretty"])
    .default("json")
    .describe("json: one JSON object per line (production); pretty: human-readable (development)."),
};

export const runtimeEnv = {
  NODE_ENV: z
    .enum(["development", "production", "test"])
    .default("development")
    .describe("production makes secrets (BETTER_AUTH_SECRET, SECRETS_ENCRYPTION_KEY) mandatory."),
  /** Demo mode seeds a demo account and fleet; never enable it on a real deployment. */
  DEMO_MODE: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .describe("Seed a demo account and fleet; never enable it on a real deployment.")
    .transform((v) => v === "true" || v === "1"),
};

/**
 * Key material for secrets stored encrypted (notification channel configs: webhook signing secrets,
 * Slack/Discord URLs, Telegram tokens). Web and worker must share it. Required in production; in
 * development and demo mode a key is derived from DATABASE_URL when it is not set.
 */
export const secretsEnv = {
  SECRETS_ENCRYPTION_KEY: z
    .string()
    .min(32, "must be at least 32 characters")
    .optional()
    .describe(
      "Encrypts stored notification channel secrets; web and worker must share it. Required in production (32+ characters).",
    ),
};

/**
 * Parse `source` against `shape` (after resolving X_FILE variables); throws AppError("CONFIG")
 * naming each bad variable. The message never contains a value.
 */
export function parseEnv<S extends z.ZodRawShape>(
  shape: S,
  source: Record<string, string | undefined>,
): z.infer<z.ZodObject<S>> {
  const files = resolveFileVariables(shape, source);
  if (files.problems.length > 0) {
    throw new AppError("CONFIG", `Invalid environment:\n  ${files.problems.join("\n  ")}`, {
      details: { variables: files.problems.map((p) => p.slice(0, p.indexOf(":"))) },
    });
  }
  source = files.values;
  const result = z.object(shape).safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join(".") || "(env)";
    const value = source[String(issue.path[0])];
    const got = value === undefined ? "it is not set" : "it is set but invalid";
    return `${name}: ${issue.message} (${got})`;
  });
  throw new AppError("CONFIG", `Invalid environment:\n  ${problems.join("\n  ")}`, {
    details: { variables: result.error.issues.map((i) => i.path.join(".")) },
  });
}

/**
 * For process entry points: parse, or print the problem and exit(1). Reads process.env here,
 * the one sanctioned place.
 */
export function loadEnvOrExit<S extends z.ZodRawShape>(shape: S, appName: string): z.infer<z.ZodObject<S>> {
  try {
    return parseEnv(shape, process.env);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${appName}: ${message}\n`);
    process.exit(1);
  }
}
