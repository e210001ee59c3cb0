import { AppError } from "@rpcpulse/config";
import { deleteAlertRuleRow } from "@rpcpulse/db/alerting";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";

export async function deleteAlertRule(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { ruleId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  const ruleId = requireUuid(input.ruleId, "Alert rule");
  if (!(await deleteAlertRuleRow(deps.prisma, { organizationId: ctx.organizationId, ruleId }))) {
    throw new AppError("NOT_FOUND", "Alert rule not found.");
  }
}
