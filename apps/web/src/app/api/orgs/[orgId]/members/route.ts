import { listOrganizationMembers } from "@rpcpulse/services/orgs";
import { requireApiOrgContext, withRoute } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

/** GET /api/orgs/:orgId/members (any member; signed in, not with an API key). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId, { sessionOnly: true });
  const members = await listOrganizationMembers({ prisma: getRuntime().prisma }, ctx);
  return { body: { members } };
});
