import { inviteMember } from "@rpcpulse/auth";
import { listPendingInvitations } from "@rpcpulse/services/orgs";
import { requireRole } from "@rpcpulse/services/context";
import { z } from "zod";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

const PostBody = z.object({ email: z.string(), role: z.enum(["owner", "admin", "viewer"]) }).strict();

/** GET /api/orgs/:orgId/invitations: pending invitations (admin or owner). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId, { sessionOnly: true });
  const invitations = await listPendingInvitations({ prisma: getRuntime().prisma }, ctx);
  return { body: { invitations } };
});

/** POST /api/orgs/:orgId/invitations { email, role }: returns the invitation and its link. */
export const POST = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId, { sessionOnly: true });
  const body = await readJsonBody(request, PostBody);
  requireRole(ctx, "admin");
  const { data } = await inviteMember(
    getRuntime().auth,
    { organizationId: ctx.organizationId, email: body.email, role: body.role },
    request.headers,
  );
  const link = `${new URL(getRuntime().env.APP_BASE_URL).origin}/invite/${data.id}`;
  return {
    status: 201,
    body: { invitation: { id: data.id, email: data.email, role: data.role, expiresAt: data.expiresAt }, link },
  };
});
