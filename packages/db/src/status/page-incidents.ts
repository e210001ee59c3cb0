import type { IncidentImpact, IncidentStatus, Prisma, PrismaClient } from "../generated/client/index.js";

/** Incidents as pages and the admin UI read them. */

const INCIDENT_VIEW = {
  updates: { orderBy: { createdAt: "desc" } },
  components: { select: { componentId: true, component: { select: { pageId: true } } } },
} satisfies Prisma.IncidentInclude;

export type IncidentView = Prisma.IncidentGetPayload<{ include: typeof INCIDENT_VIEW }>;

/**
 * Incidents shown on a page: created on it, or linked to one of its components; unresolved ones
 * plus those started at or after `since`. Newest first.
 */
export async function listPageIncidents(
  prisma: PrismaClient,
  input: { pageId: string; organizationId: string; since: Date; limit: number },
): Promise<IncidentView[]> {
  return prisma.incident.findMany({
    where: {
      organizationId: input.organizationId,
      OR: [{ pageId: input.pageId }, { components: { some: { component: { pageId: input.pageId } } } }],
      AND: [{ OR: [{ resolvedAt: null }, { startedAt: { gte: input.since } }] }],
    },
    include: INCIDENT_VIEW,
    orderBy: { startedAt: "desc" },
    take: input.limit,
  });
}

export async function listOrgIncidents(
  prisma: PrismaClient,
  input: { organizationId: string; limit: number },
): Promise<IncidentView[]> {
  return prisma.incident.findMany({
    where: { organizationId: input.organizationId },
    include: INCIDENT_VIEW,
    orderBy: [{ resolvedAt: { sort: "desc", nulls: "first" } }, { startedAt: "desc" }],
    take: input.limit,
  });
}

export async function findOrgIncident(
  prisma: PrismaClient,
  input: { organizationId: string; incidentId: string },
): Promise<IncidentView | null> {
  return prisma.incident.findFirst({
    where: { id: input.incidentId, organizationId: input.organizationId },
    include: INCIDENT_VIEW,
  });
}

export async function insertManualIncident(
  prisma: PrismaClient,
  input: {
    organizationId: string;
    pageId: string;
    title: string;
    impact: IncidentImpact;
    status: IncidentStatus;
    componentIds: string[];
    body: string;
    bodyHtml: string;
    authorId: string;
    at: Date;
  },
): Promise<{ id: string }> {
  return prisma.incident.create({
    data: {
      organizationId: input.organizationId,
      pageId: input.pageId,
      title: input.title,
      impact: input.impact,
      status: input.status,
      startedAt: input.at,
      resolvedAt: input.status === "resolved" ? input.at : null,
      components: { create: input.componentIds.map((componentId) => ({ componentId })) },
      updates: {
        create: {
          status: input.status,
          body: input.body,
          bodyHtml: input.bodyHtml,
          authorId: input.authorId,
          createdAt: input.at,
        },
      },
    },
    select: { id: true },
  });
}

export async function updateIncidentFields(
  prisma: PrismaClient,
  input: { organizationId: string; incidentId: string; title: string; impact: IncidentImpact },
): Promise<boolean> {
  const { count } = await prisma.incident.updateMany({
    where: { id: input.incidentId, organizationId: input.organizationId },
    data: { title: input.title, impact: input.impact },
  });
  return count > 0;
}

export async function deleteIncident(
  prisma: PrismaClient,
  input: { organizationId: string; incidentId: string },
): Promise<boolean> {
  const { count } = await prisma.incident.deleteMany({
    where: { id: input.incidentId, organizationId: input.organizationId },
  });
  return count > 0;
}
