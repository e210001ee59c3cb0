import { CLAIM_PROOF_METHODS, verifyEndpointClaim, withdrawEndpointClaim } from "@rpcpulse/services/directory";
import { z } from "zod";
import { getClaimDeps } from "@/features/directory/claims/claim-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

type Params = { orgId: string; claimId: string };
const PostBody = z.object({ method: z.enum(CLAIM_PROOF_METHODS) }).strict();

/**
 * POST /api/orgs/:orgId/endpoint-claims/:claimId { method: "dns" | "well-known" }: check the proof now
 * (admin or owner): the TXT record, or the token at https://<host>/.well-known/rpcpulse-claim.
 */
export const POST = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const body = await readJsonBody(request, PostBody);
  return { body: { claim: await verifyEndpointClaim(getClaimDeps(), ctx, { claimId: params.claimId, ...body }) } };
});

/** DELETE /api/orgs/:orgId/endpoint-claims/:claimId: withdraw the claim (admin or owner). */
export const DELETE = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  await withdrawEndpointClaim(getClaimDeps(), ctx, { claimId: params.claimId });
  return { body: { ok: true } };
});
