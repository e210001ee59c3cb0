import type { z } from "zod";
import { alertsQueue } from "./queues/alerts.queue.js";
import { advisorQueue } from "./queues/advisor.queue.js";
import { ingestQueue } from "./queues/ingest.queue.js";
import { maintenanceQueue } from "./queues/maintenance.queue.js";
import { notifyQueue } from "./queues/notify.queue.js";
import { probeQueue } from "./queues/probe.queue.js";

/** Every queue of RPC Pulse. Adding a queue = one file in queues/ and one line here. */
export const queueCatalog = {
  ingest: ingestQueue,
  maintenance: maintenanceQueue,
  probe: probeQueue,
  advisor: advisorQueue,
  alerts: alertsQueue,
  notify: notifyQueue,
} as const;

export type QueueCatalog = typeof queueCatalog;
export type QueueName = keyof QueueCatalog;
export type PayloadOf<N extends QueueName> = z.infer<QueueCatalog[N]["payload"]>;

export const QUEUE_NAMES = Object.keys(queueCatalog) as QueueName[];

export function isQueueName(value: string): value is QueueName {
  return Object.hasOwn(queueCatalog, value);
}
