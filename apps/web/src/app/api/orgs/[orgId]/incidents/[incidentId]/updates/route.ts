import { createIncidentUpdate } from "@rpcpulse/services/status";
import { z } from "zod";
import { getStatusIncidentDeps } from "@/features/status/status-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** POST /api/orgs/:orgId/incidents/:incidentId/updates {status,body} (admin); status "resolved" resolves it. */
export const POST = withRoute<{ orgId: string; incidentId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const fields = await readJsonBody(request, z.record(z.string(), z.unknown()));
  await createIncidentUpdate(getStatusIncidentDeps(), ctx, { incidentId: params.incidentId, fields });
  return { status: 201, body: { ok: true } };
});
