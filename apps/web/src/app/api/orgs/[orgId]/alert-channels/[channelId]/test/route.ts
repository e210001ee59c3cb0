import { testAlertChannel } from "@rpcpulse/services/alerting";
import { getAlertingDeps } from "@/features/alerting/alerts-deps.js";
import { getRuntime } from "@/server/runtime.js";
import { requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** POST /api/orgs/:orgId/alert-channels/:channelId/test: queue a test notification (admin). */
export const POST = withRoute<{ orgId: string; channelId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const queued = await testAlertChannel(getAlertingDeps(), ctx, {
    channelId: params.channelId,
    appBaseUrl: getRuntime().env.APP_BASE_URL,
  });
  return { status: 202, body: queued };
});
