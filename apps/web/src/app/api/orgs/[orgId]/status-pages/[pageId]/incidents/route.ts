import { createIncident } from "@rpcpulse/services/status";
import { z } from "zod";
import { getStatusIncidentDeps } from "@/features/status/status-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** POST /api/orgs/:orgId/status-pages/:pageId/incidents {title,body,status?,impact?,componentIds?} (admin). */
export const POST = withRoute<{ orgId: string; pageId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const fields = await readJsonBody(request, z.record(z.string(), z.unknown()));
  return { status: 201, body: await createIncident(getStatusIncidentDeps(), ctx, { pageId: params.pageId, fields }) };
});
