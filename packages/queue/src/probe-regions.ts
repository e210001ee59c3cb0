import type { Queue } from "bullmq";
import type { EnqueuedJob } from "./enqueue.js";
import { getQueue, instanceQueueName, type QueueTarget } from "./get-queue.js";
import { parsePayload } from "./parse-payload.js";
import type { ProbePayload } from "./queues/probe.queue.js";

/**
 * Probe rounds run once per region: the recurring round job on the shared `probe` queue is fanned
 * out into one `probe.<region>` queue per active region, which only that region's workers consume.
 */
export function probeRegionQueueName(region: string): string {
  return instanceQueueName("probe", region);
}

/**
 * Add one round to a region's probe queue. `roundId` (letters, digits, '.', '_', '-') makes the job
 * id, so a fan-out that is retried adds each region's round once.
 */
export async function enqueueRegionProbeRound(
  target: QueueTarget,
  input: { region: string; roundId: string; payload: ProbePayload },
): Promise<EnqueuedJob & { region: string }> {
  const data = parsePayload("probe", { ...input.payload, task: "round" });
  const queue = getQueue("probe", target, input.region) as unknown as Queue;
  const jobId = `round.${input.region}.${input.roundId.replace(/[^A-Za-z0-9._-]/g, "_")}`;
  const job = await queue.add("probe-round", data, { jobId });
  if (!job.id) throw new Error(`BullMQ returned no id for a round of region "${input.region}"`);
  return { jobId: job.id, queue: "probe", region: input.region };
}
