import { z } from "zod";
import { defineQueue } from "../define-queue.js";
import { SweepShard } from "./sweep-shard.js";

/**
 * Alert evaluation: `evaluate` runs every rule of every organization once (recurring, every
 * ALERT_EVALUATE_INTERVAL_MS). `sweep-deliveries` (recurring, ALERT_DELIVERY_SWEEP_INTERVAL_MS)
 * queues delivery rows that were committed but never queued (the outbox sweeper). Global work: no
 * tenant. A failed run is retried once after a second (a database blip); after that the next
 * scheduled run supersedes it.
 */
export const AlertsPayload = z.object({
  task: z.enum(["evaluate", "sweep-deliveries"]),
  /** evaluate: only this shard's organizations (recurring jobs with SWEEP_SHARDS > 1). */
  shard: SweepShard.optional(),
});
export type AlertsPayload = z.infer<typeof AlertsPayload>;

export const alertsQueue = defineQueue({
  name: "alerts",
  jobName: "alerts-evaluate",
  payload: AlertsPayload,
  jobId: undefined,
  tenantOf: () => undefined,
  defaultJobOptions: {
    attempts: 2,
    backoff: { type: "fixed", delay: 1_000 },
    removeOnComplete: { count: 200 },
    removeOnFail: { count: 500, age: 7 * 24 * 3_600 },
  },
});
