import { insertAlertRule, type AlertRuleRow } from "@rpcpulse/db/alerting";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { toAlertRuleFields } from "./alert-rule-input.js";

/** Create a rule (admins and owners). */
export async function createAlertRule(deps: ServiceDeps, ctx: ServiceContext, raw: unknown): Promise<AlertRuleRow> {
  requireRole(ctx, "admin");
  const fields = await toAlertRuleFields(deps, ctx, raw);
  return insertAlertRule(deps.prisma, { organizationId: ctx.organizationId, ...fields });
}
