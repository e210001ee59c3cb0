import { AppError } from "@rpcpulse/config";
import {
  CLAIM_PROOF_METHODS,
  findEndpointClaim,
  recordClaimCheck,
  type ClaimProofMethod,
} from "@rpcpulse/db/directory";
import { z } from "zod";
import { requireRole, type ServiceContext } from "../../context.js";
import { requireUuid } from "../../ids.js";
import type { ClaimDeps } from "./claim-deps.js";
import { checkDnsProof, checkWellKnownProof } from "./claim-proofs.js";
import { presentClaim, type EndpointClaimView } from "./claim-view.js";

/** Verification attempts per claim: one every 5 s at most (each may cost a DNS lookup or an HTTPS fetch). */
const MIN_CHECK_INTERVAL_MS = 5_000;

/**
 * Check the claim's proof now: the DNS TXT record, or the token served by the endpoint at
 * https://<host>/.well-known/rpcpulse-claim. Success makes the organization the endpoint's claimant
 * (taking it over from another organization: the current proof is what counts). Nothing an agent
 * reports is a proof. A failure is recorded with its reason and returned, not thrown.
 */
export async function verifyEndpointClaim(
  deps: ClaimDeps,
  ctx: ServiceContext,
  input: { claimId: string; method: ClaimProofMethod },
): Promise<EndpointClaimView> {
  requireRole(ctx, "admin");
  const method = z.enum(CLAIM_PROOF_METHODS, { error: "Verify by DNS record or well-known file." }).parse(input.method);
  const claimId = requireUuid(input.claimId, "Claim");
  const claim = await findEndpointClaim(deps.sql, { organizationId: ctx.organizationId, claimId });
  if (!claim) throw new AppError("NOT_FOUND", "Claim not found.");
  const now = deps.now?.() ?? new Date();
  if (claim.lastCheckedAt && now.getTime() - claim.lastCheckedAt.getTime() < MIN_CHECK_INTERVAL_MS)
    throw new AppError("RATE_LIMITED", "This claim was just checked; try again in a few seconds.", {
      retryAfterSeconds: 5,
    });
  const result =
    method === "dns"
      ? await checkDnsProof(deps.resolveTxt, claim.url, claim.token)
      : await checkWellKnownProof(deps.http, claim.url, claim.token);
  await recordClaimCheck(deps.sql, {
    organizationId: ctx.organizationId,
    claimId: claim.id,
    at: now,
    ok: result.ok,
    method,
    error: result.ok ? null : result.reason,
  });
  const updated = await findEndpointClaim(deps.sql, { organizationId: ctx.organizationId, claimId: claim.id });
  if (!updated) throw new AppError("NOT_FOUND", "Claim not found.");
  return presentClaim(updated);
}
