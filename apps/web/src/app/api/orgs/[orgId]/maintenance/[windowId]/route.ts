import { deleteMaintenance, updateMaintenance } from "@rpcpulse/services/status";
import { z } from "zod";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";
type Params = { orgId: string; windowId: string };

/** PATCH /api/orgs/:orgId/maintenance/:windowId {title,body?,startsAt,endsAt,componentIds}: replace the window (admin). */
export const PATCH = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const fields = await readJsonBody(request, z.record(z.string(), z.unknown()));
  await updateMaintenance(getStatusReadDeps(), ctx, { windowId: params.windowId, fields });
  return { body: { ok: true } };
});

/** DELETE /api/orgs/:orgId/maintenance/:windowId: cancel the window (admin). */
export const DELETE = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  await deleteMaintenance(getStatusReadDeps(), ctx, { windowId: params.windowId });
  return { body: { ok: true } };
});
