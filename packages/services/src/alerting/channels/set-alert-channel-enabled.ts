import { AppError } from "@rpcpulse/config";
import { setAlertChannelEnabledRow } from "@rpcpulse/db/alerting";
import { requireRole, type ServiceContext } from "../../context.js";
import { requireUuid } from "../../ids.js";
import type { AlertingDeps } from "../alerting-deps.js";

export async function setAlertChannelEnabled(
  deps: Pick<AlertingDeps, "prisma">,
  ctx: ServiceContext,
  input: { channelId: string; enabled: boolean },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.channelId, "Channel");
  if (!(await setAlertChannelEnabledRow(deps.prisma, { organizationId: ctx.organizationId, ...input }))) {
    throw new AppError("NOT_FOUND", "Channel not found.");
  }
}
