import { isIP } from "node:net";
import { databaseEnv, loadEnvOrExit, loggingEnv, metricsEnv, parseEnv, redisEnv, runtimeEnv } from "@rpcpulse/config";
import { MAX_INGEST_GROUP_BATCHES } from "@rpcpulse/queue";
import { z } from "zod";

/** The ingest API's one validated environment (shared fragments from @rpcpulse/config). */
const ms = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);
const bytes = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

export const ingestEnvShape = {
  ...databaseEnv,
  ...redisEnv,
  ...loggingEnv,
  ...runtimeEnv,
  ...metricsEnv,
  INGEST_HOST: z.string().min(1).default("0.0.0.0").describe("Address the ingest API listens on."),
  /** 0 picks a free port (tests). */
  INGEST_PORT: z.coerce.number().int().min(0).max(65_535).default(3003),
  /** Request body as sent (gzip or identity), bytes. */
  INGEST_MAX_BODY_BYTES: bytes(1024 * 1024, 1024, 64 * 1024 * 1024),
  /** Body after inflating, bytes; inflating stops at this cap. */
  INGEST_MAX_INFLATED_BYTES: bytes(8 * 1024 * 1024, 1024, 256 * 1024 * 1024),
  /** Per-token token bucket: sustained requests per second and burst size. */
  INGEST_RATE_PER_SECOND: z.coerce.number().positive().max(100_000).default(5),
  INGEST_RATE_BURST: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(60)
    .describe("Per-token token bucket: burst size (requests) above INGEST_RATE_PER_SECOND."),
  /** Allowed |agent clock − server clock|. */
  INGEST_MAX_CLOCK_SKEW_MS: ms(10 * 60_000, 1_000, 24 * 3_600_000),
  /** Oldest sample accepted (agent spool replay after an outage). */
  INGEST_MAX_SAMPLE_AGE_MS: ms(48 * 3_600_000, 60_000, 30 * 86_400_000),
  /** Token cache freshness (capped at 30 s) and stale-if-database-down window. */
  INGEST_TOKEN_CACHE_TTL_MS: ms(30_000, 0, 30_000),
  INGEST_TOKEN_STALE_IF_ERROR_MS: ms(5 * 60_000, 0, 3_600_000).describe(
    "A cached valid token keeps being accepted this long while the database cannot be reached.",
  ),
  /** Unknown tokens are cached apart from valid ones: how long, and how many prefixes at most. */
  INGEST_TOKEN_NEGATIVE_TTL_MS: ms(60_000, 0, 3_600_000),
  INGEST_TOKEN_NEGATIVE_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(10_000)
    .describe("Unknown token prefixes remembered at most (see INGEST_TOKEN_NEGATIVE_TTL_MS)."),
  /**
   * Unauthenticated requests (missing, malformed, unknown, revoked token) per client address, per
   * ingest process: sustained rate and burst. Past it: 429, and no token look-up in the database.
   */
  INGEST_UNAUTH_RATE_PER_SECOND: z.coerce.number().positive().max(100_000).default(1),
  INGEST_UNAUTH_BURST: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(20)
    .describe("Unauthenticated requests per client address: burst size above INGEST_UNAUTH_RATE_PER_SECOND."),
  INGEST_UNAUTH_MAX_ADDRESSES: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000_000)
    .default(100_000)
    .describe("Client addresses tracked at most by the unauthenticated-request limiter (oldest dropped first)."),
  /**
   * Comma-separated reverse proxy addresses/CIDRs in front of the ingest API; only for requests
   * from them is X-Forwarded-For read for the client address (per-address limits).
   */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((e) => isIP(e.split("/")[0] ?? "") !== 0),
      "must be comma-separated IP addresses or CIDRs",
    ),
  /**
   * Backpressure: with this many ingest jobs waiting/retrying in Redis, or this many parked (failed
   * for good, awaiting `npm run ingest:redrive`), new batches get 503 + Retry-After (seconds) and
   * stay in the agents' spools. Counts are read at most once per INGEST_LOAD_CHECK_INTERVAL_MS.
   */
  INGEST_MAX_BACKLOG_JOBS: z.coerce.number().int().min(1).max(100_000_000).default(100_000),
  INGEST_MAX_PARKED_JOBS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000_000)
    .default(10_000)
    .describe("Backpressure: parked (failed for good) ingest jobs at which new batches get 503."),
  INGEST_BACKPRESSURE_RETRY_AFTER_S: z.coerce
    .number()
    .int()
    .min(1)
    .max(3_600)
    .default(60)
    .describe("Retry-After (seconds) sent with a backpressure 503."),
  INGEST_LOAD_CHECK_INTERVAL_MS: ms(1_000, 0, 60_000).describe(
    "Queue backlog and parked counts are read from Redis at most this often.",
  ),
  /**
   * Retry schedule of a queued batch for errors other than a database outage (an outage never uses
   * up attempts): attempts, first delay (doubling). After the last attempt the job is parked.
   */
  INGEST_JOB_ATTEMPTS: z.coerce.number().int().min(1).max(1_000).default(12),
  INGEST_JOB_BACKOFF_MS: ms(1_000, 1, 3_600_000).describe(
    "First retry delay of a queued batch (doubling per attempt, see INGEST_JOB_ATTEMPTS).",
  ),
  /** Batches remembered per node for duplicate answers (older replays are still never stored twice). */
  INGEST_DEDUPE_WINDOW: z.coerce.number().int().min(16).max(100_000).default(4_096),
  /**
   * Batches this process accepts within INGEST_QUEUE_GROUP_MS go to the queue as one job (at most
   * INGEST_QUEUE_GROUP_MAX_BATCHES batches and INGEST_QUEUE_GROUP_MAX_SAMPLES samples); each
   * request is answered once that job is in Redis. Below INGEST_QUEUE_GROUP_MIN_RATE batches per
   * second (this process, last second) a batch goes alone as a plain job at once, with no window
   * wait. Note INGEST_MAX_BACKLOG_JOBS counts jobs, grouped or not.
   */
  INGEST_QUEUE_GROUP_MS: ms(10, 0, 1_000).describe(
    "Batches accepted within this window go to the queue as one job; each request is answered once it is in Redis.",
  ),
  INGEST_QUEUE_GROUP_MIN_RATE: z.coerce
    .number()
    .min(0)
    .max(1_000_000)
    .default(50)
    .describe("Below this many batches per second (per process) a batch is queued alone at once, with no window wait."),
  INGEST_QUEUE_GROUP_MAX_BATCHES: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_INGEST_GROUP_BATCHES)
    .default(256)
    .describe("Most batches in one queue job (1 = one job per batch)."),
  INGEST_QUEUE_GROUP_MAX_SAMPLES: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(2_000)
    .describe("Most samples in one queue job (a larger batch still goes alone)."),
  /** Requests being read/processed at once; beyond it new requests get 503 at once. */
  INGEST_MAX_CONCURRENT_REQUESTS: z.coerce.number().int().min(1).max(100_000).default(256),
  /**
   * Ingest processes sharing the port (node:cluster): 0 = one per CPU, 1 = a single process.
   * Accepting a batch is CPU work (gunzip, JSON parse, validation), so one process uses one core.
   */
  INGEST_WORKERS: z.coerce.number().int().min(0).max(64).default(0),
};

/** INGEST_WORKERS resolved: 0 means one process per available CPU. */
export function ingestWorkerCount(env: Pick<IngestEnv, "INGEST_WORKERS">, cpus: number): number {
  return env.INGEST_WORKERS === 0 ? Math.max(1, cpus) : env.INGEST_WORKERS;
}

export type IngestEnv = z.infer<z.ZodObject<typeof ingestEnvShape>>;

/** Parse a given source (tests); throws AppError("CONFIG") naming each bad variable. */
export function parseIngestEnv(source: Record<string, string | undefined>): IngestEnv {
  return parseEnv(ingestEnvShape, source);
}

/** For the entry point: parse process.env or print the bad variables and exit(1). */
export function loadIngestEnv(): IngestEnv {
  return loadEnvOrExit(ingestEnvShape, "rpcpulse-ingest");
}
