import type { Job, Worker } from "bullmq";

export type JobObserver = (queue: string, outcome: "completed" | "failed", seconds: number, permanent: boolean) => void;

/**
 * Report every job attempt's end to `observe` (platform metrics) from the workers' own events:
 * duration from processedOn to finish, and whether a failure is final (attempts used up or
 * unrecoverable). Queue names are given without a cluster hash tag.
 */
export function observeJobs(workers: readonly Worker[], observe: JobObserver): void {
  for (const worker of workers) {
    const queue = worker.name.replace(/^\{(.*)\}$/, "$1");
    const seconds = (job: Job) =>
      Math.max(0, ((job.finishedOn ?? Date.now()) - (job.processedOn ?? Date.now())) / 1000);
    worker.on("completed", (job: Job) => observe(queue, "completed", seconds(job), false));
    worker.on("failed", (job: Job | undefined, error: Error) => {
      if (!job) return;
      const permanent = error.name === "UnrecoverableError" || job.attemptsMade >= (job.opts.attempts ?? 1);
      observe(queue, "failed", seconds(job), permanent);
    });
  }
}
