import { AppError } from "@rpcpulse/config";
import { updateStatusPage as updateStatusPageRow } from "@rpcpulse/db/status";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { PageInput, isUniqueViolation } from "./status-page-input.js";

export async function updateStatusPage(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { pageId: string; fields: unknown },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.pageId, "Status page");
  const fields = PageInput.parse(input.fields);
  try {
    const ok = await updateStatusPageRow(deps.prisma, {
      organizationId: ctx.organizationId,
      pageId: input.pageId,
      fields,
    });
    if (!ok) throw new AppError("NOT_FOUND", "Status page not found.");
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", "That slug is taken.", { details: { field: "slug" } });
    throw error;
  }
  invalidateStatusSnapshots();
}
