import { AppError } from "@rpcpulse/config";
import { findOrgIncident } from "@rpcpulse/db/status";
import { z } from "zod";
import { type ServiceContext, type ServiceDeps } from "../../context.js";

export async function getIncident(deps: ServiceDeps, ctx: ServiceContext, input: { incidentId: string }) {
  if (!z.string().uuid().safeParse(input.incidentId).success) throw new AppError("NOT_FOUND", "Incident not found.");
  const incident = await findOrgIncident(deps.prisma, {
    organizationId: ctx.organizationId,
    incidentId: input.incidentId,
  });
  if (!incident) throw new AppError("NOT_FOUND", "Incident not found.");
  return incident;
}
