import { deleteAlertChannel } from "@rpcpulse/services";
import { getAlertingDeps } from "../../../../../../features/alerts/alerts-deps.js";
import { requireApiOrgContext, withRoute } from "../../../../../../server/http.js";

export const dynamic = "force-dynamic";

/** DELETE /api/orgs/:orgId/alert-channels/:channelId (admin). */
export const DELETE = withRoute<{ orgId: string; channelId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  await deleteAlertChannel(getAlertingDeps(), ctx, { channelId: params.channelId });
  return { body: { ok: true } };
});
