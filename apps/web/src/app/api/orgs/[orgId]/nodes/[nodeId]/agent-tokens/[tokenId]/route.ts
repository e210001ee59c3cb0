import { revokeAgentTokenOfNode } from "@rpcpulse/services/fleet";
import { getFleetDeps } from "@/features/fleet/fleet-deps.js";
import { requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** DELETE /api/orgs/:orgId/nodes/:nodeId/agent-tokens/:tokenId (admin, write key): revoke at once. */
export const DELETE = withRoute<{ orgId: string; nodeId: string; tokenId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const record = await revokeAgentTokenOfNode(getFleetDeps(), ctx, { nodeId: params.nodeId, tokenId: params.tokenId });
  return { body: { token: record } };
});
