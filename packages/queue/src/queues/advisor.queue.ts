import { z } from "zod";
import { defineQueue } from "../define-queue.js";
import { SweepShard } from "./sweep-shard.js";

/**
 * Tuning advisor. `sweep` = evaluate the nodes with samples newer than their last evaluation (a
 * bounded batch, least recently evaluated first) and verify applied suggestions whose window has
 * passed. Global work over every organization's nodes: no tenant.
 */
export const AdvisorTask = z.enum(["sweep"]);
export type AdvisorTask = z.infer<typeof AdvisorTask>;

export const AdvisorPayload = z.object({
  task: AdvisorTask,
  /** Only this shard's organizations (recurring jobs with SWEEP_SHARDS > 1). */
  shard: SweepShard.optional(),
});
export type AdvisorPayload = z.infer<typeof AdvisorPayload>;

export const advisorQueue = defineQueue({
  name: "advisor",
  jobName: "advisor",
  payload: AdvisorPayload,
  jobId: undefined,
  tenantOf: () => undefined,
  defaultJobOptions: {
    // The next scheduled run redoes the work: retry briefly, keep few results.
    attempts: 2,
    backoff: { type: "fixed", delay: 5_000 },
    removeOnComplete: { count: 50 },
    removeOnFail: { count: 200, age: 7 * 24 * 3_600 },
  },
});
