import { getHealth, isHealthServing } from "@rpcpulse/services/platform";
import { pingRedis } from "@rpcpulse/queue";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

/**
 * GET /api/health: 200 when PostgreSQL and Redis answer, 503 otherwise ("degraded" with 200 when only
 * the read replica is set aside: reads are on the primary). Never throws; bounded time.
 */
export async function GET(): Promise<Response> {
  const { prisma, sql, redis, reads } = getRuntime();
  const report = await getHealth({
    prisma,
    sql,
    pingRedis: () => pingRedis(redis, 1_000),
    readReplica: reads.status,
    timeoutMs: 1_500,
  });
  return Response.json(report, {
    status: isHealthServing(report) ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
