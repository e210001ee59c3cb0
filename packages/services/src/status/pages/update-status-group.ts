import { AppError } from "@rpcpulse/config";
import { moveStatusGroup, renameStatusGroup } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { parseFields } from "../parse-fields.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { GroupEdit } from "./status-group-input.js";

/** Edit a group in place; a move swaps it with its neighbour atomically (see moveStatusGroup). */
export async function updateStatusGroup(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { groupId: string; fields: unknown },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.groupId, "Group");
  const { name, move } = parseFields(GroupEdit, input.fields);
  const scope = { organizationId: ctx.organizationId, groupId: input.groupId };
  if (name !== undefined && !(await renameStatusGroup(deps.prisma, { ...scope, name }))) {
    throw new AppError("NOT_FOUND", "Group not found.");
  }
  if (move && !(await moveStatusGroup(deps.prisma, { ...scope, direction: move }))) {
    throw new AppError("NOT_FOUND", "Group not found.");
  }
  invalidateStatusSnapshots();
}
