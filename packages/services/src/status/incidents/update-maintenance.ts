import { AppError } from "@rpcpulse/config";
import { findOrgMaintenanceWindow, updateMaintenanceWindow } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { parseFields } from "../parse-fields.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { pageComponentIds } from "./incident-input.js";
import { MaintenanceInput, maintenanceRow, requirePageComponents } from "./maintenance-input.js";

/**
 * Replace a window's title, message, times and components (same rules as scheduling; the
 * components must be on the window's page). Another organization's window is NOT_FOUND.
 */
export async function updateMaintenance(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { windowId: string; fields: unknown },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.windowId, "Maintenance window");
  const fields = parseFields(MaintenanceInput, input.fields);
  const scope = { organizationId: ctx.organizationId, id: input.windowId };
  const window = await findOrgMaintenanceWindow(deps.prisma, scope);
  if (!window) throw new AppError("NOT_FOUND", "Maintenance window not found.");
  requirePageComponents(await pageComponentIds(deps, ctx, window.pageId), fields.componentIds);
  const ok = await updateMaintenanceWindow(deps.prisma, {
    ...scope,
    ...maintenanceRow(fields),
  });
  if (!ok) throw new AppError("NOT_FOUND", "Maintenance window not found.");
  invalidateStatusSnapshots();
}
