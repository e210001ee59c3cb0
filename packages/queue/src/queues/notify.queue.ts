import { z } from "zod";
import { EntityId } from "../ids.js";
import { defineQueue } from "../define-queue.js";

/**
 * One delivery (a row of the delivery log) to send: an alert notification on a channel, a channel
 * test, or a direct email/webhook (status-page subscriptions). The row holds what to send; the
 * job id is the delivery id, so enqueueing twice sends once. Retried with exponential backoff
 * (5 s, 10 s, 20 s, ... about 5 minutes in all); the worker records every attempt in the row.
 */
export const NotifyPayload = z.object({
  deliveryId: EntityId,
  organizationId: EntityId.nullable(),
});
export type NotifyPayload = z.infer<typeof NotifyPayload>;

export const NOTIFY_ATTEMPTS = 6;

export const notifyQueue = defineQueue({
  name: "notify",
  jobName: "notify-delivery",
  payload: NotifyPayload,
  jobId: (p: NotifyPayload) => `delivery-${p.deliveryId}`,
  tenantOf: (p: NotifyPayload) => p.organizationId ?? undefined,
  defaultJobOptions: {
    attempts: NOTIFY_ATTEMPTS,
    backoff: { type: "exponential", delay: 5_000, jitter: 0.2 },
    removeOnComplete: { count: 1_000, age: 24 * 3_600 },
    removeOnFail: { count: 2_000, age: 7 * 24 * 3_600 },
  },
});
