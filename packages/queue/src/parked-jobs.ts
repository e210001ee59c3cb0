import type { QueueName } from "./catalog.js";
import { getQueue, type QueueTarget } from "./get-queue.js";

/**
 * A queue's backlog and its parked jobs. Parked = in the failed set: a job that used up its
 * attempts (or failed for good) and is kept there, never deleted, until it is re-driven. The ingest
 * API reads these counts to push back (503) before Redis fills up; `npm run ingest:redrive` moves
 * parked jobs back to the queue.
 */
export interface QueueLoad {
  /** Waiting (paused included), prioritized and delayed (retrying) jobs. */
  backlog: number;
  parked: number;
}

export async function readQueueLoad(target: QueueTarget, name: QueueName): Promise<QueueLoad> {
  const counts = await getQueue(name, target).getJobCounts("wait", "prioritized", "delayed", "failed");
  return {
    backlog: (counts.wait ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0),
    parked: counts.failed ?? 0,
  };
}

export interface ParkedJob {
  id: string;
  failedReason: string;
  attemptsMade: number;
  finishedOn: number | null;
}

/** The oldest parked jobs (up to `limit`), for a dry run of the re-drive. */
export async function listParkedJobs(target: QueueTarget, name: QueueName, limit: number): Promise<ParkedJob[]> {
  const jobs = await getQueue(name, target).getFailed(0, Math.max(0, limit - 1));
  return jobs.map((job) => ({
    id: job.id ?? "",
    failedReason: job.failedReason ?? "",
    attemptsMade: job.attemptsMade,
    finishedOn: job.finishedOn ?? null,
  }));
}

/**
 * Move up to `limit` parked jobs back to the queue with their attempts reset, so each gets the
 * whole retry schedule again. Job ids do not change: a batch that was parked is still written once.
 * Returns how many were re-driven.
 */
export async function redriveParkedJobs(target: QueueTarget, name: QueueName, limit: number): Promise<number> {
  const queue = getQueue(name, target);
  let redriven = 0;
  while (redriven < limit) {
    const jobs = await queue.getFailed(0, Math.min(500, limit - redriven) - 1);
    if (jobs.length === 0) break;
    for (const job of jobs) {
      await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
      redriven++;
    }
  }
  return redriven;
}
