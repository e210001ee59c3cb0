import { createAgentToken, listAgentTokens } from "@rpcpulse/services/fleet";
import { getFleetDeps } from "@/features/fleet/fleet-deps.js";
import { requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";
type Params = { orgId: string; nodeId: string };

/** GET /api/orgs/:orgId/nodes/:nodeId/agent-tokens: token metadata, never secrets (any member, any key). */
export const GET = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  return { body: { tokens: await listAgentTokens(getFleetDeps(), ctx, { nodeId: params.nodeId }) } };
});

/** POST /api/orgs/:orgId/nodes/:nodeId/agent-tokens (admin, write key): one more token; other tokens stay valid. */
export const POST = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const issued = await createAgentToken(getFleetDeps(), ctx, { nodeId: params.nodeId });
  return { status: 201, body: { token: issued.token, record: issued.record } };
});
