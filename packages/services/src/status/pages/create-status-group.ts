import { AppError } from "@rpcpulse/config";
import { insertStatusGroup } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { GroupInput } from "./status-group-input.js";

export async function createStatusGroup(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string; fields: unknown },
): Promise<{ id: string }> {
  requireRole(ctx, "admin");
  const fields = GroupInput.parse(input.fields);
  requireUuid(input.pageId, "Status page");
  const created = await insertStatusGroup(deps.prisma, {
    organizationId: ctx.organizationId,
    pageId: input.pageId,
    ...fields,
  });
  if (!created) throw new AppError("NOT_FOUND", "Status page not found.");
  invalidateStatusSnapshots();
  return created;
}
