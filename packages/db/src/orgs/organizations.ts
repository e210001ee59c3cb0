import type { PrismaClient } from "../sql/client.js";

/** The owner membership of an organization, by slug (the oldest owner when there are several). */
export async function findOrganizationOwner(
  prisma: PrismaClient,
  organizationSlug: string,
): Promise<{ userId: string; organizationId: string; organizationSlug: string } | null> {
  const row = await prisma.member.findFirst({
    where: { role: "owner", organization: { slug: organizationSlug } },
    orderBy: { createdAt: "asc" },
    select: { userId: true, organization: { select: { id: true, slug: true } } },
  });
  return row
    ? { userId: row.userId, organizationId: row.organization.id, organizationSlug: row.organization.slug }
    : null;
}
