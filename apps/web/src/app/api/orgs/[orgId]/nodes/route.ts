import { listOrganizationNodes } from "@rpcpulse/services";
import { requireApiOrgContext, withRoute } from "../../../../../server/http.js";
import { getRuntime } from "../../../../../server/runtime.js";

export const dynamic = "force-dynamic";

/** GET /api/orgs/:orgId/nodes: the organization's nodes (any member). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const nodes = await listOrganizationNodes({ prisma: getRuntime().prisma }, ctx);
  return { body: { nodes } };
});
