import { getHealth } from "@rpcpulse/services";
import { pingRedis } from "@rpcpulse/queue";
import { getRuntime } from "../../../server/runtime.js";

export const dynamic = "force-dynamic";

/** GET /api/health: 200 when PostgreSQL and Redis answer, 503 otherwise. Never throws; bounded time. */
export async function GET(): Promise<Response> {
  const { prisma, sql, redis } = getRuntime();
  const report = await getHealth({ prisma, sql, pingRedis: () => pingRedis(redis, 1_000), timeoutMs: 1_500 });
  return Response.json(report, {
    status: report.status === "ok" ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
