import { deleteAlertChannel, setAlertChannelEnabled } from "@rpcpulse/services/alerting";
import { z } from "zod";
import { getAlertingDeps } from "@/features/alerting/alerts-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** DELETE /api/orgs/:orgId/alert-channels/:channelId (admin). */
export const DELETE = withRoute<{ orgId: string; channelId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  await deleteAlertChannel(getAlertingDeps(), ctx, { channelId: params.channelId });
  return { body: { ok: true } };
});

const PatchBody = z.object({ enabled: z.boolean() }).strict();

/** PATCH /api/orgs/:orgId/alert-channels/:channelId {enabled} (admin): pause or resume a channel. */
export const PATCH = withRoute<{ orgId: string; channelId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const body = await readJsonBody(request, PatchBody);
  await setAlertChannelEnabled(getAlertingDeps(), ctx, { channelId: params.channelId, enabled: body.enabled });
  return { body: { ok: true } };
});
