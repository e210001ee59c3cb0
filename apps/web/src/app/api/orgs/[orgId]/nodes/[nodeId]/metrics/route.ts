import { getNodeMetrics } from "@rpcpulse/services/fleet";
import { getFleetDeps } from "@/features/fleet/fleet-deps.js";
import { requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** GET /api/orgs/:orgId/nodes/:nodeId/metrics?range=1h|24h|7d|30d: status, latest samples and series (any member, any key). */
export const GET = withRoute<{ orgId: string; nodeId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const range = new URL(request.url).searchParams.get("range") ?? "1h";
  return { body: await getNodeMetrics(getFleetDeps(), ctx, { nodeId: params.nodeId, range }) };
});
