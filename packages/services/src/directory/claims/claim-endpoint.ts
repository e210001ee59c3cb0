import { randomBytes } from "node:crypto";
import { AppError } from "@rpcpulse/config";
import { findEndpointIdByUrl, upsertEndpointClaim } from "@rpcpulse/db/directory";
import { z } from "zod";
import { requireRole, type ServiceContext } from "../../context.js";
import { isUuid } from "../../ids.js";
import type { ClaimDeps } from "./claim-deps.js";
import { presentClaim, type EndpointClaimView } from "./claim-view.js";

/**
 * Start (or show again) the organization's claim on a listed endpoint, named by its id or its exact
 * URL: admin or owner.
 */
export async function claimEndpoint(
  deps: Pick<ClaimDeps, "sql">,
  ctx: ServiceContext,
  input: { endpoint: string },
): Promise<EndpointClaimView> {
  requireRole(ctx, "admin");
  const ref = z.string().trim().min(1, "Give the endpoint's id or URL.").max(2048).parse(input.endpoint);
  const endpointId = isUuid(ref) ? ref : await findEndpointIdByUrl(deps.sql, ref);
  const row = endpointId
    ? await upsertEndpointClaim(deps.sql, {
        endpointId,
        organizationId: ctx.organizationId,
        token: randomBytes(16).toString("hex"),
        createdBy: ctx.userId,
      })
    : null;
  if (!row) throw new AppError("NOT_FOUND", "No listed endpoint has this id or URL.");
  return presentClaim(row);
}
