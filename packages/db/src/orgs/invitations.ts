import type { PrismaClient } from "../sql/client.js";

/** Pending invitations of an organization that expire after `now`, newest first. */
export async function listPendingInvitationRows(
  prisma: PrismaClient,
  input: { organizationId: string; now: Date },
): Promise<{ id: string; email: string; role: string | null; expiresAt: Date; inviterEmail: string }[]> {
  const rows = await prisma.invitation.findMany({
    where: { organizationId: input.organizationId, status: "pending", expiresAt: { gt: input.now } },
    select: { id: true, email: true, role: true, expiresAt: true, inviter: { select: { email: true } } },
    orderBy: { createdAt: "desc" },
  });
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    expiresAt: r.expiresAt,
    inviterEmail: r.inviter.email,
  }));
}
