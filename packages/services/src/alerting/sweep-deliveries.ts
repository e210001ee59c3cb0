import { listUnqueuedDeliveries } from "@rpcpulse/db/alerting";
import type { AlertingDeps } from "./alerting-deps.js";
import { queueStoredDelivery } from "./enqueue-delivery.js";

/**
 * The delivery outbox's sweeper (recurring job on the alerts queue): deliveries are committed
 * first and queued second, so a crash between the two or Redis being away leaves a row that no
 * job will ever send. Each run queues at most `limit` such rows, oldest first, older than
 * `graceMs` (their writer may still be queueing them). Idempotent: the job id is the delivery id,
 * so a row queued twice (by its writer and the sweeper, or by two workers' sweeps) is sent once;
 * a row whose job already ran has left the `queued` status and is never picked again.
 */
export interface SweepDeliveriesOptions {
  now?: Date;
  /** Rows younger than this are left to their writer (default 30 s). */
  graceMs?: number;
  /** Rows queued per run at most (default 500); the rest wait for the next run. */
  limit?: number;
}

export interface SweepDeliveriesReport {
  found: number;
  queued: number;
  /** Rows whose enqueue failed (Redis away): tried again on the next run. */
  failed: number;
  /** The oldest row found, ms before now (how late the oldest unqueued delivery is). */
  oldestAgeMs: number | null;
}

export async function sweepUnqueuedDeliveries(
  deps: Pick<AlertingDeps, "prisma" | "queue">,
  options: SweepDeliveriesOptions = {},
): Promise<SweepDeliveriesReport> {
  const now = options.now ?? new Date();
  const rows = await listUnqueuedDeliveries(deps.prisma, {
    createdBefore: new Date(now.getTime() - (options.graceMs ?? 30_000)),
    limit: options.limit ?? 500,
  });
  let queued = 0;
  for (const row of rows) if (await queueStoredDelivery(deps, row)) queued++;
  return {
    found: rows.length,
    queued,
    failed: rows.length - queued,
    oldestAgeMs: rows[0] ? now.getTime() - rows[0].createdAt.getTime() : null,
  };
}
