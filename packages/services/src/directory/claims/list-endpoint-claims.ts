import { listOrganizationClaims } from "@rpcpulse/db/directory";
import type { ServiceContext } from "../../context.js";
import type { ClaimDeps } from "./claim-deps.js";
import { presentClaim, type EndpointClaimView } from "./claim-view.js";

/** The organization's claims (any member may look). */
export async function listEndpointClaims(
  deps: Pick<ClaimDeps, "sql">,
  ctx: ServiceContext,
): Promise<EndpointClaimView[]> {
  return (await listOrganizationClaims(deps.sql, ctx.organizationId)).map(presentClaim);
}
