import { removeMember, updateMemberRole } from "@rpcpulse/auth";
import { getOrganizationMember } from "@rpcpulse/services/orgs";
import { requireRole } from "@rpcpulse/services/context";
import { z } from "zod";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

type Params = { orgId: string; memberId: string };
const PatchBody = z.object({ role: z.enum(["owner", "admin", "viewer"]) }).strict();

/** PATCH /api/orgs/:orgId/members/:memberId { role } (admin or owner; only owners grant owner). */
export const PATCH = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId, { sessionOnly: true });
  const body = await readJsonBody(request, PatchBody);
  requireRole(ctx, "admin");
  await getOrganizationMember({ prisma: getRuntime().prisma }, ctx, params.memberId);
  await updateMemberRole(
    getRuntime().auth,
    { organizationId: ctx.organizationId, memberId: params.memberId, role: body.role },
    request.headers,
  );
  return { body: { ok: true } };
});

/** DELETE /api/orgs/:orgId/members/:memberId (admin or owner). */
export const DELETE = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId, { sessionOnly: true });
  requireRole(ctx, "admin");
  await getOrganizationMember({ prisma: getRuntime().prisma }, ctx, params.memberId);
  await removeMember(
    getRuntime().auth,
    { organizationId: ctx.organizationId, memberId: params.memberId },
    request.headers,
  );
  return { body: { ok: true } };
});
