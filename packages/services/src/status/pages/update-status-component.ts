import { AppError } from "@rpcpulse/config";
import { updateStatusComponent as updateStatusComponentRow } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { ComponentEdit } from "./status-component-input.js";

export async function updateStatusComponent(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { componentId: string; fields: unknown },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.componentId, "Component");
  const fields = ComponentEdit.parse(input.fields);
  const ok = await updateStatusComponentRow(deps.prisma, {
    organizationId: ctx.organizationId,
    componentId: input.componentId,
    ...fields,
  });
  if (!ok) throw new AppError("NOT_FOUND", "Component or group not found.");
  invalidateStatusSnapshots();
}
