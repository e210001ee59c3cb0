import { createAlertRule, getAlertsOverview } from "@rpcpulse/services/alerting";
import { z } from "zod";
import { getAlertingDeps } from "@/features/alerting/alerts-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** GET /api/orgs/:orgId/alert-rules: the organization's rules (any member). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  return { body: { rules: (await getAlertsOverview(getAlertingDeps(), ctx)).rules } };
});

/**
 * POST /api/orgs/:orgId/alert-rules {name,type,target:"org"|"node:<id>"|"endpoint:<id>",threshold?,
 * degraded?,resolveBelow?,windowMinutes?,forSeconds?,resolveForSeconds?,renotifyMinutes?,
 * notifyResolved?,openIncidents?,enabled?,channelIds?} (admin).
 */
export const POST = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const body = await readJsonBody(request, z.record(z.string(), z.unknown()));
  return { status: 201, body: await createAlertRule(getAlertingDeps(), ctx, body) };
});
