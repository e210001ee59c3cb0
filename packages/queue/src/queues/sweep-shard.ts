import { z } from "zod";

/**
 * One shard of a sweep split by organization (alert evaluation, advisor sweep, status-page uptime):
 * the organizations with hash(organization id) % count = index. Each shard is its own recurring job,
 * so worker replicas run different shards at once; absent = the whole sweep in one job.
 */
export const SweepShard = z
  .object({ index: z.number().int().min(0), count: z.number().int().min(1).max(1_024) })
  .refine((s) => s.index < s.count, { message: "shard index must be below the shard count" });
export type SweepShard = z.infer<typeof SweepShard>;
