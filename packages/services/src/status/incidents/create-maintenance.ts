import { insertMaintenanceWindow } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { pageComponentIds } from "./incident-input.js";
import { MaintenanceInput, maintenanceRow, requirePageComponents } from "./maintenance-input.js";

export async function createMaintenance(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string; fields: unknown },
): Promise<{ id: string }> {
  requireRole(ctx, "admin");
  const fields = MaintenanceInput.parse(input.fields);
  requirePageComponents(await pageComponentIds(deps, ctx, input.pageId), fields.componentIds);
  const created = await insertMaintenanceWindow(deps.prisma, {
    organizationId: ctx.organizationId,
    pageId: input.pageId,
    ...maintenanceRow(fields),
  });
  invalidateStatusSnapshots();
  return created;
}
