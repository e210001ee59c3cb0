import { createAlertChannel, getAlertsOverview } from "@rpcpulse/services/alerting";
import { z } from "zod";
import { getAlertingDeps } from "@/features/alerting/alerts-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** GET /api/orgs/:orgId/alert-channels: channels with their non-secret summary (any member). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  return { body: { channels: (await getAlertsOverview(getAlertingDeps(), ctx)).channels } };
});

/**
 * POST /api/orgs/:orgId/alert-channels {name,type,to?|url?|botToken?+chatId?} (admin). A webhook's
 * signing secret is in this response only.
 */
export const POST = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const body = await readJsonBody(request, z.record(z.string(), z.unknown()));
  const created = await createAlertChannel(getAlertingDeps(), ctx, body);
  return { status: 201, body: { ...created.channel, signingSecret: created.signingSecret } };
});
