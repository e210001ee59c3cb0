import { updateStatusGroup, deleteStatusGroup } from "@rpcpulse/services/status";
import { z } from "zod";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";
type Params = { orgId: string; groupId: string };

/** PATCH /api/orgs/:orgId/status-groups/:groupId {name?,move?:"up"|"down"} (admin): rename and/or move one place. */
export const PATCH = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const fields = await readJsonBody(request, z.record(z.string(), z.unknown()));
  await updateStatusGroup(getStatusReadDeps(), ctx, { groupId: params.groupId, fields });
  return { body: { ok: true } };
});

/** DELETE /api/orgs/:orgId/status-groups/:groupId (admin); its components stay, ungrouped. */
export const DELETE = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  await deleteStatusGroup(getStatusReadDeps(), ctx, { groupId: params.groupId });
  return { body: { ok: true } };
});
