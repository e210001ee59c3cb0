import { AppError } from "@rpcpulse/config";
import { deleteStatusComponent as deleteStatusComponentRow } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";

export async function deleteStatusComponent(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { componentId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.componentId, "Component");
  if (
    !(await deleteStatusComponentRow(deps.prisma, {
      organizationId: ctx.organizationId,
      componentId: input.componentId,
    }))
  ) {
    throw new AppError("NOT_FOUND", "Component not found.");
  }
  invalidateStatusSnapshots();
}
