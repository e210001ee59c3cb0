import { Cluster, Redis, type ClusterOptions, type RedisOptions } from "ioredis";

export type { Cluster, Redis } from "ioredis";

/** A single Redis or a Redis Cluster: queues, workers and producers take either. */
export type RedisConnection = Redis | Cluster;

/**
 * Where Redis is: REDIS_URL for a single server, or REDIS_CLUSTER_NODES (seed nodes of a Redis
 * Cluster, `host:port` each) for a cluster. With cluster nodes, REDIS_URL still gives the
 * credentials (user, password) and TLS (rediss://) the nodes share.
 */
export interface RedisEndpoint {
  url: string;
  clusterNodes?: ReadonlyArray<{ host: string; port: number }> | undefined;
}

/**
 * Who holds the connection decides how it behaves while Redis is away:
 * - `worker`: BullMQ workers block on Redis; commands must wait for a reconnect instead of
 *   failing (`maxRetriesPerRequest: null`), so a Redis restart pauses work and loses nothing.
 * - `producer`: request handlers (the ingest API) must answer fast; with the offline queue off a
 *   command fails at once while Redis is down, the handler answers 503 and the agent retries
 *   from its own buffer.
 */
export type RedisRole = "worker" | "producer";

export interface CreateRedisConnectionOptions {
  role: RedisRole;
  /** Shown by `CLIENT LIST`; helps to tell processes apart on a shared Redis. */
  connectionName?: string;
  /**
   * A producer's auto-pipelining (default on). Off for a connection that rarely has two commands
   * in one event-loop turn but many defined scripts (BullMQ's ~40 on a queue's connection): ioredis
   * copies every defined script into each auto-pipeline it builds, a cost with nothing to gain.
   */
  autoPipelining?: boolean;
}

/** Reconnect delay: 200 ms doubling to 5 s, forever (a worker never gives up on Redis). */
export function computeReconnectDelay(attempt: number): number {
  return Math.min(200 * 2 ** Math.max(0, attempt - 1), 5_000);
}

/**
 * A producer (the ingest API: rate bucket, dedupe set, job add, token change mark per request, for
 * hundreds of requests at once) sends the commands issued in one event-loop turn as one write: at
 * 1,000 requests/s a write per command cost the ingest process more CPU in socket syscalls than
 * parsing and validating the batches. Workers keep plain connections (BullMQ blocks on them).
 */
const PRODUCER_PIPELINING = { enableAutoPipelining: true } as const;
const producerPipelining = (options: CreateRedisConnectionOptions) =>
  options.autoPipelining === false ? {} : PRODUCER_PIPELINING;

export function createRedisConnection(redisUrl: string, options: CreateRedisConnectionOptions): Redis {
  const shared: RedisOptions = {
    connectionName: options.connectionName,
    retryStrategy: computeReconnectDelay,
    // Reconnect when a failover turns the node into a replica.
    reconnectOnError: (error) => error.message.startsWith("READONLY"),
  };
  const byRole: RedisOptions =
    options.role === "worker"
      ? { maxRetriesPerRequest: null, enableOfflineQueue: true }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000, ...producerPipelining(options) };
  return new Redis(redisUrl, { ...shared, ...byRole });
}

/** True for an ioredis Cluster (queue names are hash-tagged there, see bullQueueName). */
export function isClusterConnection(connection: RedisConnection): connection is Cluster {
  return connection.isCluster;
}

/**
 * A single Redis (createRedisConnection) or, with `endpoint.clusterNodes`, an ioredis Cluster with
 * the same role semantics: MOVED/ASK followed, commands retried across a failover
 * (retryDelayOnFailover / retryDelayOnClusterDown) and slots refreshed on every reconnect.
 */
export function createRedisClient(endpoint: RedisEndpoint, options: CreateRedisConnectionOptions): RedisConnection {
  const nodes = endpoint.clusterNodes;
  if (!nodes || nodes.length === 0) return createRedisConnection(endpoint.url, options);
  const url = new URL(endpoint.url);
  const credentials: RedisOptions = {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === "rediss:" ? { tls: {} } : {}),
  };
  const worker = options.role === "worker";
  const clusterOptions: ClusterOptions = {
    ...(worker ? {} : producerPipelining(options)),
    clusterRetryStrategy: computeReconnectDelay,
    // A worker's commands wait for the cluster to come back; a producer's fail fast (503, agent retries).
    enableOfflineQueue: worker,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    retryDelayOnTryAgain: 100,
    slotsRefreshTimeout: 2_000,
    redisOptions: {
      ...credentials,
      connectionName: options.connectionName,
      // Reconnect when a failover turns the node into a replica.
      reconnectOnError: (error) => error.message.startsWith("READONLY"),
      ...(worker ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 1, connectTimeout: 2_000 }),
    },
  };
  return new Cluster(
    nodes.map((n) => ({ host: n.host, port: n.port })),
    clusterOptions,
  );
}

/** PING with a deadline, for health endpoints; never throws. */
export async function pingRedis(connection: RedisConnection, timeoutMs = 1_000): Promise<boolean> {
  // A connection still doing its first handshake is not "down": wait for it within the deadline.
  // One that is reconnecting or closed is down now, and the health check says so at once.
  const starting =
    connection.status === "wait" || connection.status === "connecting" || connection.status === "connect";
  if (connection.status !== "ready" && !starting) return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    const reply = await Promise.race([
      starting ? waitForReady(connection).then(() => connection.ping()) : connection.ping(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("redis ping timed out")), timeoutMs);
      }),
    ]);
    return reply === "PONG";
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function waitForReady(connection: RedisConnection): Promise<void> {
  if (connection.status === "ready") return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onReady = (): void => {
      connection.off("end", onEnd);
      resolve();
    };
    const onEnd = (): void => {
      connection.off("ready", onReady);
      reject(new Error("redis connection ended"));
    };
    connection.once("ready", onReady);
    connection.once("end", onEnd);
  });
}
