import type { DefaultJobOptions } from "bullmq";
import type { z } from "zod";

/** One catalog entry: everything producers and the worker need to agree on for a queue. */
export interface QueueDefinition<Name extends string, Schema extends z.ZodType> {
  name: Name;
  /** The BullMQ job name used when adding a job (logs and dashboards group by it). */
  jobName: string;
  payload: Schema;
  /** Deterministic job id for idempotent enqueue; undefined lets BullMQ number the jobs. */
  jobId: ((payload: z.infer<Schema>) => string) | undefined;
  /** Organization a job belongs to, for log context; undefined for global work. */
  tenantOf: (payload: z.infer<Schema>) => string | undefined;
  defaultJobOptions: DefaultJobOptions;
  /**
   * Group jobs: one job carrying several payloads of this queue (`{ items: [...] }`, each checked
   * against `payload`), added under its own job name so the consumer tells them apart (see
   * group-jobs.ts). Absent: one payload per job only.
   */
  group?: { jobName: string; maxItems: number };
}

export function defineQueue<Name extends string, Schema extends z.ZodType>(
  definition: QueueDefinition<Name, Schema>,
): QueueDefinition<Name, Schema> {
  return definition;
}
