import { AppError } from "@rpcpulse/config";
import { updateAlertRuleRow, type AlertRuleRow } from "@rpcpulse/db/alerting";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { toAlertRuleFields } from "./alert-rule-input.js";

/** Replace a rule's settings (admins and owners); NOT_FOUND for other organizations' rules. */
export async function updateAlertRule(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { ruleId: string; fields: unknown },
): Promise<AlertRuleRow> {
  requireRole(ctx, "admin");
  requireUuid(input.ruleId, "Alert rule");
  const fields = await toAlertRuleFields(deps, ctx, input.fields);
  const row = await updateAlertRuleRow(deps.prisma, {
    organizationId: ctx.organizationId,
    ruleId: input.ruleId,
    ...fields,
  });
  if (!row) throw new AppError("NOT_FOUND", "Alert rule not found.");
  return row;
}
