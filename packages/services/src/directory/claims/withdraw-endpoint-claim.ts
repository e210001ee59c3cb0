import { AppError } from "@rpcpulse/config";
import { deleteEndpointClaim } from "@rpcpulse/db/directory";
import { requireRole, type ServiceContext } from "../../context.js";
import { requireUuid } from "../../ids.js";
import type { ClaimDeps } from "./claim-deps.js";

/** Withdraw a claim: admin or owner. The endpoint is unclaimed if this organization held it. */
export async function withdrawEndpointClaim(
  deps: Pick<ClaimDeps, "sql">,
  ctx: ServiceContext,
  input: { claimId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  const claimId = requireUuid(input.claimId, "Claim");
  if (!(await deleteEndpointClaim(deps.sql, { organizationId: ctx.organizationId, claimId })))
    throw new AppError("NOT_FOUND", "Claim not found.");
}
