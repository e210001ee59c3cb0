import { listOrgIncidents } from "@rpcpulse/db/status";
import { type ServiceContext, type ServiceDeps } from "../../context.js";

export async function listIncidents(deps: ServiceDeps, ctx: ServiceContext) {
  return listOrgIncidents(deps.prisma, { organizationId: ctx.organizationId, limit: 200 });
}
