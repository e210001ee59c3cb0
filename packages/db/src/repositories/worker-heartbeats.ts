import type { PrismaClient } from "../client.js";

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
