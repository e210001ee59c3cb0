import { Queue } from "bullmq";
import { queueCatalog, type PayloadOf, type QueueName } from "./catalog.js";
import { isClusterConnection, type RedisConnection } from "./connection.js";

/** Where queues live: one Redis connection and the key prefix (QUEUE_PREFIX) of this install. */
export interface QueueTarget {
  connection: RedisConnection;
  prefix: string;
  /**
   * Errors a Queue reports (mostly the shared connection's, which its owner already logs).
   * Without a listener BullMQ would print them raw to stderr.
   */
  onError?: (error: Error, queue: QueueName) => void;
}

export type CatalogQueue<N extends QueueName> = Queue<PayloadOf<N>, unknown, string>;

/**
 * The name BullMQ keys a queue by. On a Redis Cluster it is hash-tagged (`{ingest}`), so every key
 * of one queue (`<prefix>:{ingest}:wait`, `:active`, `:<job id>`...) hashes to one slot, as BullMQ's
 * multi-key Lua scripts require, while different queues spread over the cluster's masters. On a
 * single Redis the keys stay untagged (`<prefix>:ingest:...`), so an upgrade strands no queued job.
 */
export function bullQueueName(name: QueueName, connection: RedisConnection, instance?: string): string {
  const full = instanceQueueName(name, instance);
  return isClusterConnection(connection) ? `{${full}}` : full;
}

/**
 * One catalog queue may run as several instances with the same payload and options, e.g. one probe
 * queue per region (`probe.eu-west`): `<name>.<instance>`, each its own BullMQ queue (and cluster slot).
 */
export function instanceQueueName(name: QueueName, instance?: string): string {
  if (instance === undefined) return name;
  if (!/^[a-z0-9-]{1,64}$/.test(instance)) throw new Error(`invalid queue instance "${instance}"`);
  return `${name}.${instance}`;
}

const cache = new WeakMap<RedisConnection, Map<string, Queue>>();

/**
 * The one Queue instance per (connection, prefix, name), configured from the catalog.
 * Queues share the caller's connection; closing them does not close it.
 */
export function getQueue<N extends QueueName>(name: N, target: QueueTarget, instance?: string): CatalogQueue<N> {
  let byKey = cache.get(target.connection);
  if (!byKey) {
    byKey = new Map();
    cache.set(target.connection, byKey);
  }
  const key = `${target.prefix}\u0000${instanceQueueName(name, instance)}`;
  let queue = byKey.get(key);
  if (!queue) {
    queue = new Queue(bullQueueName(name, target.connection, instance), {
      connection: target.connection,
      prefix: target.prefix,
      defaultJobOptions: queueCatalog[name].defaultJobOptions,
    });
    const onError = target.onError;
    queue.on("error", (error: Error) => onError?.(error, name));
    byKey.set(key, queue);
  }
  return queue as unknown as CatalogQueue<N>;
}

/** Close every queue opened on this connection through getQueue (before closing the connection). */
export async function closeQueues(connection: RedisConnection): Promise<void> {
  const byKey = cache.get(connection);
  if (!byKey) return;
  cache.delete(connection);
  await Promise.all([...byKey.values()].map((queue) => queue.close()));
}
