import { AppError } from "@rpcpulse/config";
import { deleteStatusGroup as deleteStatusGroupRow } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";

export async function deleteStatusGroup(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { groupId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.groupId, "Group");
  if (!(await deleteStatusGroupRow(deps.prisma, { organizationId: ctx.organizationId, groupId: input.groupId }))) {
    throw new AppError("NOT_FOUND", "Group not found.");
  }
  invalidateStatusSnapshots();
}
