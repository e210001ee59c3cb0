import { AppError } from "@rpcpulse/config";
import { deleteEndpointClaim } from "@rpcpulse/db/directory";
import { requireRole, type ServiceContext } from "../../context.js";
import { ClaimRefId, type ClaimDeps } from "./claim-deps.js";

/** Withdraw a claim: admin or owner. The endpoint is unclaimed if this organization held it. */
export async function withdrawEndpointClaim(
  deps: Pick<ClaimDeps, "sql">,
  ctx: ServiceContext,
  input: { claimId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  const claimId = ClaimRefId.safeParse(input.claimId);
  if (
    !claimId.success ||
    !(await deleteEndpointClaim(deps.sql, { organizationId: ctx.organizationId, claimId: claimId.data }))
  )
    throw new AppError("NOT_FOUND", "Claim not found.");
}
