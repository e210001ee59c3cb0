import { updateStatusComponent, deleteStatusComponent } from "@rpcpulse/services/status";
import { z } from "zod";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";
type Params = { orgId: string; componentId: string };

/** PATCH /api/orgs/:orgId/status-components/:componentId {displayName,groupId?} (admin, write key). */
export const PATCH = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const fields = await readJsonBody(request, z.record(z.string(), z.unknown()));
  await updateStatusComponent(getStatusReadDeps(), ctx, { componentId: params.componentId, fields });
  return { body: { ok: true } };
});

/** DELETE /api/orgs/:orgId/status-components/:componentId (admin, write key). */
export const DELETE = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  await deleteStatusComponent(getStatusReadDeps(), ctx, { componentId: params.componentId });
  return { body: { ok: true } };
});
