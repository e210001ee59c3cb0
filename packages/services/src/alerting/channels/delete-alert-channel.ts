import { AppError } from "@rpcpulse/config";
import { deleteAlertChannelRow } from "@rpcpulse/db/alerting";
import { requireRole, type ServiceContext } from "../../context.js";
import { requireUuid } from "../../ids.js";
import type { AlertingDeps } from "../alerting-deps.js";

export async function deleteAlertChannel(
  deps: Pick<AlertingDeps, "prisma">,
  ctx: ServiceContext,
  input: { channelId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  const channelId = requireUuid(input.channelId, "Channel");
  if (!(await deleteAlertChannelRow(deps.prisma, { organizationId: ctx.organizationId, channelId }))) {
    throw new AppError("NOT_FOUND", "Channel not found.");
  }
}
