import type { PrismaClient } from "../sql/client.js";

/** Relational queries on members (Prisma model Member); every read names its organization. */

export interface MemberRow {
  id: string;
  userId: string;
  role: string;
  createdAt: Date;
  name: string;
  email: string;
}

export type OrganizationRef = { organizationId: string } | { organizationSlug: string };

/** The user's membership of the organization named by id or slug; null when not a member. */
export async function findMembership(
  prisma: PrismaClient,
  input: { userId: string } & OrganizationRef,
): Promise<{ role: string; organizationId: string; organizationSlug: string } | null> {
  const organization = "organizationId" in input ? { id: input.organizationId } : { slug: input.organizationSlug };
  const row = await prisma.member.findFirst({
    where: { userId: input.userId, organization },
    select: { role: true, organization: { select: { id: true, slug: true } } },
  });
  return row ? { role: row.role, organizationId: row.organization.id, organizationSlug: row.organization.slug } : null;
}

const MEMBER_SELECT = {
  id: true,
  userId: true,
  role: true,
  createdAt: true,
  user: { select: { name: true, email: true } },
} as const;

function toMemberRow(r: {
  id: string;
  userId: string;
  role: string;
  createdAt: Date;
  user: { name: string; email: string };
}): MemberRow {
  return { id: r.id, userId: r.userId, role: r.role, createdAt: r.createdAt, name: r.user.name, email: r.user.email };
}

/** Members of an organization, oldest first. */
export async function listOrganizationMemberRows(prisma: PrismaClient, organizationId: string): Promise<MemberRow[]> {
  const rows = await prisma.member.findMany({
    where: { organizationId },
    select: MEMBER_SELECT,
    orderBy: [{ createdAt: "asc" }],
  });
  return rows.map(toMemberRow);
}

/** One member of an organization; null when the id is not a member of that organization. */
export async function findOrganizationMemberRow(
  prisma: PrismaClient,
  input: { organizationId: string; memberId: string },
): Promise<MemberRow | null> {
  const row = await prisma.member.findFirst({
    where: { id: input.memberId, organizationId: input.organizationId },
    select: MEMBER_SELECT,
  });
  return row ? toMemberRow(row) : null;
}

/** The organizations a user belongs to with the user's role, by organization name. */
export async function listUserMembershipRows(
  prisma: PrismaClient,
  userId: string,
): Promise<{ id: string; name: string; slug: string; role: string }[]> {
  const rows = await prisma.member.findMany({
    where: { userId },
    select: { role: true, organization: { select: { id: true, name: true, slug: true } } },
    orderBy: { organization: { name: "asc" } },
  });
  return rows.map((r) => ({ ...r.organization, role: r.role }));
}
