import { upsertWorkerHeartbeat } from "@rpcpulse/db/platform";
import { type PrismaClient } from "@rpcpulse/db/sql";
import { z } from "zod";

export const WorkerHeartbeatInput = z.object({
  /** hostname:pid, or the stable WORKER_ID of the deployment. */
  id: z.string().min(1).max(128),
  role: z.string().min(1).max(32),
  hostname: z.string().min(1).max(255),
  pid: z.number().int().positive(),
  version: z.string().min(1).max(64),
  startedAt: z.date(),
  /** Queues this process consumes (empty for a scheduler-only process). */
  queues: z.array(z.string().min(1).max(64)).max(32),
  now: z.date(),
});
export type WorkerHeartbeatInput = z.infer<typeof WorkerHeartbeatInput>;

/**
 * Upsert this worker's row in worker_heartbeats (read by GET /api/health). A restarted process
 * with the same stable id takes its row over: startedAt, pid and queues follow the new process.
 */
export async function recordWorkerHeartbeat(
  deps: { prisma: PrismaClient },
  input: WorkerHeartbeatInput,
): Promise<void> {
  const beat = WorkerHeartbeatInput.parse(input);
  await upsertWorkerHeartbeat(deps.prisma, {
    id: beat.id,
    role: beat.role,
    hostname: beat.hostname,
    pid: beat.pid,
    version: beat.version,
    startedAt: beat.startedAt,
    queues: beat.queues,
    lastSeenAt: beat.now,
  });
}
