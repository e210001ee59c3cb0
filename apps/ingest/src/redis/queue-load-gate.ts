import { AppError } from "@rpcpulse/config";
import { readQueueLoad, type QueueLoad, type QueueTarget } from "@rpcpulse/queue";

/**
 * Accept-side backpressure. An accepted batch stays in Redis until the worker has committed it, so
 * after a long PostgreSQL (or worker) outage the ingest queue grows; past a bound the ingest API
 * answers 503 with Retry-After instead of 202, and the agents keep the batches in their own spools
 * (on disk) until the backlog drains. Parked jobs (failed for good, waiting for a re-drive) have
 * their own bound: they mean something needs a human. The counts are read at most once per
 * `checkIntervalMs` per process; a failed read lets requests through (the enqueue itself then
 * fails and answers 503 if Redis is really away).
 */
export interface QueueLoadGateOptions {
  maxBacklog: number;
  maxParked: number;
  retryAfterSeconds: number;
  checkIntervalMs: number;
  now?: () => number;
}

export interface QueueLoadGate {
  /** Throws AppError UNAVAILABLE (503 + Retry-After) while the ingest queue is past a bound. */
  check(): Promise<void>;
  /** The last counts read, if any. */
  readonly last: QueueLoad | null;
}

export function createQueueLoadGate(target: QueueTarget, options: QueueLoadGateOptions): QueueLoadGate {
  const now = options.now ?? Date.now;
  let last: QueueLoad | null = null;
  let readAt = -Infinity;
  let pending: Promise<void> | null = null;

  const refresh = (): Promise<void> => {
    pending ??= readQueueLoad(target, "ingest")
      .then(
        (load) => {
          last = load;
        },
        () => undefined,
      )
      .finally(() => {
        readAt = now();
        pending = null;
      });
    return pending;
  };

  return {
    async check() {
      if (now() - readAt >= options.checkIntervalMs) await refresh();
      if (!last) return;
      const over =
        last.backlog >= options.maxBacklog
          ? { reason: "backlog", count: last.backlog, bound: options.maxBacklog }
          : last.parked >= options.maxParked
            ? { reason: "parked", count: last.parked, bound: options.maxParked }
            : null;
      if (!over) return;
      throw new AppError(
        "UNAVAILABLE",
        over.reason === "backlog"
          ? "The ingest queue is behind; keep the batch and retry after the Retry-After delay."
          : "Too many ingest jobs are parked awaiting a re-drive; keep the batch and retry later.",
        {
          retryAfterSeconds: options.retryAfterSeconds,
          details: { reason: `queue_${over.reason}`, count: over.count, bound: over.bound },
        },
      );
    },
    get last() {
      return last;
    },
  };
}
