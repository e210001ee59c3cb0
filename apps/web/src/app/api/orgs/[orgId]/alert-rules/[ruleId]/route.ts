import { deleteAlertRule, updateAlertRule } from "@rpcpulse/services/alerting";
import { z } from "zod";
import { getAlertingDeps } from "@/features/alerting/alerts-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";
type Params = { orgId: string; ruleId: string };

/** PUT /api/orgs/:orgId/alert-rules/:ruleId: replace the rule's settings (admin). */
export const PUT = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const fields = await readJsonBody(request, z.record(z.string(), z.unknown()));
  return { body: await updateAlertRule(getAlertingDeps(), ctx, { ruleId: params.ruleId, fields }) };
});

/** DELETE /api/orgs/:orgId/alert-rules/:ruleId (admin). */
export const DELETE = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  await deleteAlertRule(getAlertingDeps(), ctx, { ruleId: params.ruleId });
  return { body: { ok: true } };
});
