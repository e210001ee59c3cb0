import { listPendingInvitationRows } from "@rpcpulse/db/orgs";
import type { OrgRole, ServiceContext, ServiceDeps } from "../context.js";
import { parseRole, requireRole } from "../context.js";

export interface PendingInvitation {
  id: string;
  email: string;
  role: OrgRole;
  expiresAt: Date;
  invitedBy: string;
}

/** Pending, unexpired invitations of the context's organization. Admins and owners only. */
export async function listPendingInvitations(
  deps: ServiceDeps,
  ctx: ServiceContext,
  now = new Date(),
): Promise<PendingInvitation[]> {
  requireRole(ctx, "admin");
  const rows = await listPendingInvitationRows(deps.prisma, { organizationId: ctx.organizationId, now });
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: parseRole(r.role ?? "viewer"),
    expiresAt: r.expiresAt,
    invitedBy: r.inviterEmail,
  }));
}
