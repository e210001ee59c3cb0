import { Redis, type RedisOptions } from "ioredis";

export type { Redis } from "ioredis";

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
}

/** Reconnect delay: 200 ms doubling to 5 s, forever (a worker never gives up on Redis). */
export function computeReconnectDelay(attempt: number): number {
  return Math.min(200 * 2 ** Math.max(0, attempt - 1), 5_000);
}

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
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 };
  return new Redis(redisUrl, { ...shared, ...byRole });
}

/** PING with a deadline, for health endpoints; never throws. */
export async function pingRedis(connection: Redis, timeoutMs = 1_000): Promise<boolean> {
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

function waitForReady(connection: Redis): Promise<void> {
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
