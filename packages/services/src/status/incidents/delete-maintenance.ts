import { AppError } from "@rpcpulse/config";
import { deleteMaintenanceWindow } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";

export async function deleteMaintenance(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { windowId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.windowId, "Maintenance window");
  if (!(await deleteMaintenanceWindow(deps.prisma, { organizationId: ctx.organizationId, id: input.windowId }))) {
    throw new AppError("NOT_FOUND", "Maintenance window not found.");
  }
  invalidateStatusSnapshots();
}
