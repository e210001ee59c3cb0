import { AppError } from "@rpcpulse/config";
import { deleteStatusPage as deleteStatusPageRow } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";

export async function deleteStatusPage(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.pageId, "Status page");
  if (!(await deleteStatusPageRow(deps.prisma, { organizationId: ctx.organizationId, pageId: input.pageId }))) {
    throw new AppError("NOT_FOUND", "Status page not found.");
  }
  invalidateStatusSnapshots();
}
