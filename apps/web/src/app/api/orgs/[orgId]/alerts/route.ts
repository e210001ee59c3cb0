import { getAlertsOverview } from "@rpcpulse/services/alerting";
import { getAlertingDeps } from "@/features/alerting/alerts-deps.js";
import { requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** GET /api/orgs/:orgId/alerts: current alerts, recent events and the delivery log (any member). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const view = await getAlertsOverview(getAlertingDeps(), ctx);
  return { body: { active: view.active, events: view.events, deliveries: view.deliveries } };
});
