import type { JobsOptions, Queue } from "bullmq";
import type { z } from "zod";
import { queueCatalog, type PayloadOf, type QueueCatalog, type QueueName } from "./catalog.js";
import { getQueue, type QueueTarget } from "./get-queue.js";
import { parsePayload } from "./parse-payload.js";

/** What a producer may tune per job; ids and removal policy stay the catalog's. */
export type EnqueueOptions = Pick<JobsOptions, "delay" | "priority" | "attempts" | "backoff">;

export interface EnqueuedJob {
  jobId: string;
  queue: QueueName;
}

type PayloadInput<N extends QueueName> = z.input<QueueCatalog[N]["payload"]>;

/** Validate, then add one job. Throws AppError("VALIDATION") before anything reaches Redis. */
export async function enqueue<N extends QueueName>(
  name: N,
  target: QueueTarget,
  payload: PayloadInput<N>,
  options: EnqueueOptions = {},
): Promise<EnqueuedJob> {
  return addParsedJob(name, target, parsePayload(name, payload), options);
}

/** Add one job whose payload parsePayload already returned (its catalog job name and id). */
export async function addParsedJob<N extends QueueName>(
  name: N,
  target: QueueTarget,
  data: PayloadOf<N>,
  options: EnqueueOptions = {},
): Promise<EnqueuedJob> {
  const definition = queueCatalog[name];
  const jobId = (definition.jobId as ((p: typeof data) => string) | undefined)?.(data);
  // The generic queue type cannot be narrowed inside a generic function; the payload was parsed before.
  const queue = getQueue(name, target) as unknown as Queue;
  const job = await queue.add(definition.jobName, data, { ...options, ...(jobId ? { jobId } : {}) });
  if (!job.id) throw new Error(`BullMQ returned no id for a "${name}" job`);
  return { jobId: job.id, queue: name };
}

/** An agent batch that the ingest API has stored; idempotent per (nodeId, batchSeq). */
export function enqueueIngestBatch(target: QueueTarget, payload: PayloadInput<"ingest">, options?: EnqueueOptions) {
  return enqueue("ingest", target, payload, options);
}

/** A one-off maintenance run (the recurring one comes from recurring-jobs.ts). */
export function enqueueMaintenance(
  target: QueueTarget,
  payload: PayloadInput<"maintenance">,
  options?: EnqueueOptions,
) {
  return enqueue("maintenance", target, payload, options);
}

/** A probe of one public endpoint. */
export function enqueueProbe(target: QueueTarget, payload: PayloadInput<"probe">, options?: EnqueueOptions) {
  return enqueue("probe", target, payload, options);
}

/** A delivery of the delivery log (alert notification, channel test, direct email/webhook). */
export function enqueueDelivery(target: QueueTarget, payload: PayloadInput<"notify">, options?: EnqueueOptions) {
  return enqueue("notify", target, payload, options);
}
