import { updateIncident, getIncident, deleteIncident } from "@rpcpulse/services/status";
import { z } from "zod";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";
type Params = { orgId: string; incidentId: string };

/** GET /api/orgs/:orgId/incidents/:incidentId: the incident with its updates (any member, any key). */
export const GET = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  return { body: { incident: await getIncident(getStatusReadDeps(), ctx, { incidentId: params.incidentId }) } };
});

/** PATCH /api/orgs/:orgId/incidents/:incidentId {title,impact} (admin, write key). */
export const PATCH = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const fields = await readJsonBody(request, z.record(z.string(), z.unknown()));
  await updateIncident(getStatusReadDeps(), ctx, { incidentId: params.incidentId, fields });
  return { body: { ok: true } };
});

/** DELETE /api/orgs/:orgId/incidents/:incidentId (admin, write key). */
export const DELETE = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  await deleteIncident(getStatusReadDeps(), ctx, { incidentId: params.incidentId });
  return { body: { ok: true } };
});
