import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AppError, RPCPULSE_VERSION, toErrorBody, type Logger } from "@rpcpulse/config";
import { createSqlPool, pingDatabase } from "@rpcpulse/db/sql";
import {
  agentTokenChannel,
  closeQueues,
  createRedisClient,
  pingRedis,
  readAgentTokenChangeMark,
  type QueueTarget,
} from "@rpcpulse/queue";
import { authorizeMetricsRequest, createPlatformMetrics } from "@rpcpulse/services/platform";
import { createAgentTokenVerifier } from "@rpcpulse/services/fleet";
import { createVantageEndpointFilter } from "@rpcpulse/services/directory";
import type { IngestEnv } from "./env.js";
import { createAddressLimiter } from "./http/address-limiter.js";
import { createClientAddressResolver } from "./http/client-address.js";
import { createIngestHandler, sendJson } from "./http/ingest-handler.js";
import { createIngestRedis } from "./redis/ingest-redis.js";
import { createQueueLoadGate } from "./redis/queue-load-gate.js";
import { createWireValidator } from "./wire-validator.js";

export interface RunningIngest {
  port: number;
  /** Counters of this process (token look-ups, negative-cache answers), for tests and diagnostics. */
  stats(): { tokenLookups: number; negativeHits: number; negativeCached: number; limitedAddresses: number };
  stop(): Promise<void>;
}

const REDIS_DEADLINE_MS = 2_000;

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`redis did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Everything the ingest process runs, from a parsed environment (the entry only wires signals). */
export async function startIngest(env: IngestEnv, log: Logger): Promise<RunningIngest> {
  const endpoint = { url: env.REDIS_URL, clusterNodes: env.REDIS_CLUSTER_NODES };
  const redis = createRedisClient(endpoint, { role: "producer", connectionName: "rpcpulse-ingest" });
  let redisDown = false;
  redis.on("error", (error: Error) => {
    if (!redisDown) log.warn({ err: error.message }, "redis connection error; answering 503 until it is back");
    redisDown = true;
  });
  redis.on("ready", () => {
    if (redisDown) log.info("redis connection restored");
    redisDown = false;
  });
  // The queue gets a connection of its own. BullMQ defines its ~40 Lua scripts on the connection its
  // Queue uses, and ioredis copies every defined script into each auto-pipeline it builds (one per
  // event-loop turn with commands): on the connection of the per-request commands (token marks,
  // rate limits, the dedupe set) that copying was about 11 % of an ingest process's CPU. The queue's
  // own connection has no auto-pipelining either: it carries about one job add per grouping window
  // (rarely two commands in one turn), and each auto-pipeline still copied BullMQ's scripts
  // (~4 % of an ingest process's CPU in the fleet-load profile at 2,000 agents).
  const queueRedis = createRedisClient(endpoint, {
    role: "producer",
    connectionName: "rpcpulse-ingest-queue",
    autoPipelining: false,
  });
  queueRedis.on("error", (error: Error) => log.debug({ err: error.message }, "queue connection error"));
  const target: QueueTarget = {
    connection: queueRedis,
    prefix: env.QUEUE_PREFIX,
    onError: (error) => log.debug({ err: error.message }, "queue error"),
  };
  const sql = createSqlPool(env.DATABASE_URL, {
    max: 4,
    connectionTimeoutMillis: 2_000,
    onError: (error) => log.warn({ err: error.message }, "postgres pool error"),
  });

  const verifier = createAgentTokenVerifier(
    {
      sql,
      // Each request reads its token's change mark: a token revoked, rotated or whose node was
      // deleted is refused by every ingest process from the next request on.
      readChangeMark: (tokenPrefix) =>
        withDeadline(readAgentTokenChangeMark(redis, env.QUEUE_PREFIX, tokenPrefix), REDIS_DEADLINE_MS),
    },
    {
      ttlMs: env.INGEST_TOKEN_CACHE_TTL_MS,
      staleIfErrorMs: env.INGEST_TOKEN_STALE_IF_ERROR_MS,
      negativeTtlMs: env.INGEST_TOKEN_NEGATIVE_TTL_MS,
      maxNegativeEntries: env.INGEST_TOKEN_NEGATIVE_MAX,
      onBackgroundError: (error) =>
        log.debug({ err: error instanceof Error ? error.message : String(error) }, "token lastUsedAt not written"),
    },
  );

  // Token changes from the web app: drop the cached copy at once. After a reconnect, messages may
  // have been missed, so the whole cache is dropped.
  const subscriber = createRedisClient(endpoint, { role: "worker", connectionName: "rpcpulse-ingest-sub" });
  let subscribedOnce = false;
  subscriber.on("error", () => undefined);
  subscriber.on("ready", () => {
    if (subscribedOnce) verifier.clear();
    subscribedOnce = true;
  });
  subscriber.on("message", (_channel: string, tokenPrefix: string) => verifier.invalidate(tokenPrefix));
  void subscriber.subscribe(agentTokenChannel(env.QUEUE_PREFIX)).catch(() => undefined);

  const unauthenticated = createAddressLimiter({
    ratePerSecond: env.INGEST_UNAUTH_RATE_PER_SECOND,
    burst: env.INGEST_UNAUTH_BURST,
    maxAddresses: env.INGEST_UNAUTH_MAX_ADDRESSES,
  });
  const handleIngest = createIngestHandler({
    verifier,
    clientAddress: createClientAddressResolver(env.TRUSTED_PROXIES),
    unauthenticated,
    queueLoad: createQueueLoadGate(target, {
      maxBacklog: env.INGEST_MAX_BACKLOG_JOBS,
      maxParked: env.INGEST_MAX_PARKED_JOBS,
      retryAfterSeconds: env.INGEST_BACKPRESSURE_RETRY_AFTER_S,
      checkIntervalMs: env.INGEST_LOAD_CHECK_INTERVAL_MS,
    }),
    redis: createIngestRedis(target, redis, {
      ratePerSecond: env.INGEST_RATE_PER_SECOND,
      burst: env.INGEST_RATE_BURST,
      dedupeWindow: env.INGEST_DEDUPE_WINDOW,
      jobAttempts: env.INGEST_JOB_ATTEMPTS,
      jobBackoffMs: env.INGEST_JOB_BACKOFF_MS,
      groupMaxDelayMs: env.INGEST_QUEUE_GROUP_MS,
      groupMaxBatches: env.INGEST_QUEUE_GROUP_MAX_BATCHES,
      groupMaxSamples: env.INGEST_QUEUE_GROUP_MAX_SAMPLES,
      groupMinRate: env.INGEST_QUEUE_GROUP_MIN_RATE,
    }),
    validate: createWireValidator(),
    limits: { maxBodyBytes: env.INGEST_MAX_BODY_BYTES, maxInflatedBytes: env.INGEST_MAX_INFLATED_BYTES },
    window: { maxClockSkewMs: env.INGEST_MAX_CLOCK_SKEW_MS, maxSampleAgeMs: env.INGEST_MAX_SAMPLE_AGE_MS },
    // Vantage probes only for listed endpoints of the node's chain (looked up at most once a minute).
    vantageEndpoints: createVantageEndpointFilter(
      { sql },
      {
        onError: (error) =>
          log.debug({ err: error instanceof Error ? error.message : String(error) }, "vantage endpoint list not read"),
      },
    ),
    log,
  });

  const health = async () => {
    const [redisOk, queueOk, postgresOk] = await Promise.all([
      pingRedis(redis, 1_000),
      pingRedis(queueRedis, 1_000),
      pingDatabase(sql),
    ]);
    return { redisOk: redisOk && queueOk, postgresOk };
  };

  const metrics = createPlatformMetrics("ingest", { perProcess: true });
  metrics.watchQueues(target, ["ingest"]);
  metrics.watchCache("agent_tokens", () => ({
    hits: verifier.stats.verifications - verifier.stats.lookups,
    misses: verifier.stats.lookups,
  }));

  let active = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    const started = performance.now();
    const route = path === "/v1/ingest" || path === "/healthz" || path === "/metrics" ? path : "other";
    res.once("finish", () =>
      metrics.observeRequest(route, req.method ?? "GET", res.statusCode, (performance.now() - started) / 1000),
    );
    if (path === "/metrics" && req.method === "GET") {
      const access = authorizeMetricsRequest(req.headers.authorization, env.METRICS_TOKEN);
      if (access !== "ok") {
        const error =
          access === "disabled"
            ? new AppError("NOT_FOUND", "Not found.")
            : new AppError("UNAUTHENTICATED", "Bearer METRICS_TOKEN required.");
        sendJson(res, error.httpStatus, toErrorBody(error));
        return;
      }
      void metrics.render().then(({ contentType, body }) => {
        res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(body);
      });
      return;
    }
    if (path === "/v1/ingest" && req.method === "POST") {
      if (active >= env.INGEST_MAX_CONCURRENT_REQUESTS) {
        const error = new AppError("UNAVAILABLE", "Too many requests in progress.", { retryAfterSeconds: 1 });
        sendJson(res, 503, toErrorBody(error), { "retry-after": "1", connection: "close" });
        res.once("finish", () => req.destroy());
        return;
      }
      active++;
      res.once("close", () => active--);
      void handleIngest(req, res);
      return;
    }
    if (path === "/healthz" && req.method === "GET") {
      void health().then(({ redisOk, postgresOk }) =>
        // Accepting batches needs Redis only; PostgreSQL down means new (uncached) tokens wait.
        sendJson(res, redisOk ? 200 : 503, {
          status: redisOk ? (postgresOk ? "ok" : "degraded") : "unavailable",
          checks: { redis: redisOk ? "ok" : "down", postgres: postgresOk ? "ok" : "down" },
          version: RPCPULSE_VERSION,
        }),
      );
      return;
    }
    sendJson(res, 404, toErrorBody(new AppError("NOT_FOUND", "Not found.")));
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 20_000;
  server.requestTimeout = 30_000;
  // Give Redis its first handshake before taking requests (it answers 503 while it is away; no
  // reason to start that way). Never fails the start: a Redis that is down stays down for longer.
  await Promise.all([pingRedis(redis, REDIS_DEADLINE_MS), pingRedis(queueRedis, REDIS_DEADLINE_MS)]);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.INGEST_PORT, env.INGEST_HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  log.info({ port, version: RPCPULSE_VERSION }, "ingest listening");

  return {
    port,
    stats: () => ({
      tokenLookups: verifier.stats.lookups,
      negativeHits: verifier.stats.negativeHits,
      negativeCached: verifier.negativeSize,
      limitedAddresses: unauthenticated.size,
    }),
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      });
      await closeQueues(queueRedis);
      queueRedis.disconnect();
      redis.disconnect();
      subscriber.disconnect();
      await sql.end();
    },
  };
}
