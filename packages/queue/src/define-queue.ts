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
}

export function defineQueue<Name extends string, Schema extends z.ZodType>(
  definition: QueueDefinition<Name, Schema>,
): QueueDefinition<Name, Schema> {
  return definition;
}
