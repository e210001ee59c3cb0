import { AppError } from "@rpcpulse/config";
import { setAlertRuleEnabledRow } from "@rpcpulse/db/alerting";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";

export async function setAlertRuleEnabled(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { ruleId: string; enabled: boolean },
): Promise<void> {
  requireRole(ctx, "admin");
  requireUuid(input.ruleId, "Alert rule");
  if (!(await setAlertRuleEnabledRow(deps.prisma, { organizationId: ctx.organizationId, ...input }))) {
    throw new AppError("NOT_FOUND", "Alert rule not found.");
  }
}
