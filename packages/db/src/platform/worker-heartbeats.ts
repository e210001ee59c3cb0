import type { PrismaClient } from "../sql/client.js";

/** Worker heartbeats seen after `since`, newest first, at most `limit`. */
export async function listRecentWorkerHeartbeats(
  prisma: PrismaClient,
  input: { since: Date; limit: number },
): Promise<{ id: string; role: string; lastSeenAt: Date; version: string }[]> {
  return prisma.workerHeartbeat.findMany({
    where: { lastSeenAt: { gt: input.since } },
    select: { id: true, role: true, lastSeenAt: true, version: true },
    orderBy: { lastSeenAt: "desc" },
    take: input.limit,
  });
}

export interface WorkerHeartbeatRow {
  /** hostname:pid, or the stable WORKER_ID of the deployment. */
  id: string;
  role: string;
  hostname: string;
  pid: number;
  version: string;
  startedAt: Date;
  /** Queues this process consumes (empty for a scheduler-only process). */
  queues: string[];
  lastSeenAt: Date;
}

/** Insert or take over the row of a worker id: every field follows the process that beats now. */
export async function upsertWorkerHeartbeat(prisma: PrismaClient, row: WorkerHeartbeatRow): Promise<void> {
  const { id, ...fields } = row;
  await prisma.workerHeartbeat.upsert({ where: { id }, create: { id, ...fields }, update: fields });
}
