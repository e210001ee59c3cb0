import { getNodeMetrics } from "@rpcpulse/services/fleet";
import { resolveServiceContext } from "@rpcpulse/services/context";
import { requireApiSession, withRoute } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

/**
 * GET /app/o/:slug/nodes/:nodeId/metrics?range=1h|24h|7d|30d: the node page's chart data (polled).
 * 401 without a session; 404 when the user is not a member of the organization or the node is not
 * that organization's.
 */
export const GET = withRoute<{ slug: string; nodeId: string }>(async (request, params) => {
  const session = await requireApiSession(request);
  const { prisma, reads } = getRuntime();
  const ctx = await resolveServiceContext({ prisma }, { userId: session.userId, organizationSlug: params.slug });
  const range = new URL(request.url).searchParams.get("range") ?? "1h";
  const metrics = await getNodeMetrics({ prisma, sql: reads.sql }, ctx, { nodeId: params.nodeId, range });
  return { body: metrics };
});
