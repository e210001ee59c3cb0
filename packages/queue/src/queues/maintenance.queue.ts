import { z } from "zod";
import { defineQueue } from "../define-queue.js";
import { SweepShard } from "./sweep-shard.js";

/**
 * Storage upkeep. `storage` = create partitions ahead, drop expired ones and refresh closed rollup
 * buckets (plain-PostgreSQL mode; under TimescaleDB its policies do this and the job only says so).
 * `status-uptime` = precompute the finished uptime days of public status pages' components.
 * Global work: no tenant.
 */
export const MaintenanceTask = z.enum(["storage", "status-uptime"]);
export type MaintenanceTask = z.infer<typeof MaintenanceTask>;

export const MaintenancePayload = z.object({
  task: MaintenanceTask,
  /** How far back closed rollup buckets are refreshed, in minutes (late data window). */
  rollupLookbackMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .optional(),
  /** status-uptime: only the pages of this shard's organizations (SWEEP_SHARDS > 1). */
  shard: SweepShard.optional(),
});
export type MaintenancePayload = z.infer<typeof MaintenancePayload>;

export const maintenanceQueue = defineQueue({
  name: "maintenance",
  jobName: "maintenance",
  payload: MaintenancePayload,
  jobId: undefined,
  tenantOf: () => undefined,
  defaultJobOptions: {
    attempts: 5,
    backoff: { type: "exponential", delay: 2_000, jitter: 0.2 },
    removeOnComplete: { count: 100 },
    removeOnFail: { count: 500, age: 7 * 24 * 3_600 },
  },
});
