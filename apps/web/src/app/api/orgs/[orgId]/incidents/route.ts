import { listIncidents } from "@rpcpulse/services/status";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** GET /api/orgs/:orgId/incidents: the organization's latest 200 incidents (any member, any key). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  return { body: { incidents: await listIncidents(getStatusReadDeps(), ctx) } };
});
