import { AppError } from "@rpcpulse/config";
import { deleteIncident as deleteIncidentRow } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";

export async function deleteIncident(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { incidentId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.incidentId, "Incident");
  if (!(await deleteIncidentRow(deps.prisma, { organizationId: ctx.organizationId, incidentId: input.incidentId }))) {
    throw new AppError("NOT_FOUND", "Incident not found.");
  }
  invalidateStatusSnapshots();
}
