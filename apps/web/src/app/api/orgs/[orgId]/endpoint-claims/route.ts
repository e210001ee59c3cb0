import { claimEndpoint, listEndpointClaims } from "@rpcpulse/services/directory";
import { z } from "zod";
import { getClaimDeps } from "@/features/directory/claims/claim-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

const PostBody = z.object({ endpoint: z.string().min(1).max(2048) }).strict();

/** GET /api/orgs/:orgId/endpoint-claims: the organization's endpoint claims (any member). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  return { body: { claims: await listEndpointClaims(getClaimDeps(), ctx) } };
});

/** POST /api/orgs/:orgId/endpoint-claims { endpoint: id or URL }: start a claim (admin or owner). */
export const POST = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const body = await readJsonBody(request, PostBody);
  return { status: 201, body: { claim: await claimEndpoint(getClaimDeps(), ctx, body) } };
});
