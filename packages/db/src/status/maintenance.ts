import type { PrismaClient } from "../generated/client/index.js";

/**
 * Maintenance windows covering `at` on a status component that lists this node or endpoint id.
 * With an organization id only that organization's windows count (another organization listing
 * the same public endpoint cannot silence your alerts).
 */
export async function findMaintenanceCoveringRef(
  prisma: PrismaClient,
  input: { componentRef: string; at: Date; organizationId?: string },
): Promise<{ id: string; title: string; startsAt: Date; endsAt: Date }[]> {
  return prisma.maintenanceWindow.findMany({
    where: {
      startsAt: { lte: input.at },
      endsAt: { gt: input.at },
      ...(input.organizationId ? { organizationId: input.organizationId } : {}),
      components: {
        some: { component: { OR: [{ nodeId: input.componentRef }, { endpointId: input.componentRef }] } },
      },
    },
    select: { id: true, title: true, startsAt: true, endsAt: true },
    orderBy: { startsAt: "asc" },
  });
}

export interface MaintenanceRow {
  id: string;
  pageId: string;
  title: string;
  body: string;
  bodyHtml: string;
  startsAt: Date;
  endsAt: Date;
  componentIds: string[];
}

/** Windows of a page ending after `endsAfter`, soonest first. */
export async function listPageMaintenance(
  prisma: PrismaClient,
  input: { pageId: string; endsAfter: Date; limit?: number },
): Promise<MaintenanceRow[]> {
  const rows = await prisma.maintenanceWindow.findMany({
    where: { pageId: input.pageId, endsAt: { gt: input.endsAfter } },
    include: { components: { select: { componentId: true } } },
    orderBy: { startsAt: "asc" },
    take: input.limit ?? 50,
  });
  return rows.map((r) => ({
    id: r.id,
    pageId: r.pageId,
    title: r.title,
    body: r.body,
    bodyHtml: r.bodyHtml,
    startsAt: r.startsAt,
    endsAt: r.endsAt,
    componentIds: r.components.map((c) => c.componentId),
  }));
}

export async function insertMaintenanceWindow(
  prisma: PrismaClient,
  input: Omit<MaintenanceRow, "id"> & { organizationId: string },
): Promise<{ id: string }> {
  return prisma.maintenanceWindow.create({
    data: {
      organizationId: input.organizationId,
      pageId: input.pageId,
      title: input.title,
      body: input.body,
      bodyHtml: input.bodyHtml,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      components: { create: input.componentIds.map((componentId) => ({ componentId })) },
    },
    select: { id: true },
  });
}

/** The page of one of the organization's windows, or null (another organization's is null too). */
export async function findOrgMaintenanceWindow(
  prisma: PrismaClient,
  input: { organizationId: string; id: string },
): Promise<{ id: string; pageId: string } | null> {
  return prisma.maintenanceWindow.findFirst({
    where: { id: input.id, organizationId: input.organizationId },
    select: { id: true, pageId: true },
  });
}

/** Replace a window's fields and components in one transaction; false when it is not the organization's. */
export async function updateMaintenanceWindow(
  prisma: PrismaClient,
  input: Omit<MaintenanceRow, "pageId"> & { organizationId: string },
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.maintenanceWindow.updateMany({
      where: { id: input.id, organizationId: input.organizationId },
      data: {
        title: input.title,
        body: input.body,
        bodyHtml: input.bodyHtml,
        startsAt: input.startsAt,
        endsAt: input.endsAt,
      },
    });
    if (count === 0) return false;
    await tx.maintenanceComponent.deleteMany({ where: { windowId: input.id } });
    await tx.maintenanceComponent.createMany({
      data: input.componentIds.map((componentId) => ({ windowId: input.id, componentId })),
    });
    return true;
  });
}

export async function deleteMaintenanceWindow(
  prisma: PrismaClient,
  input: { organizationId: string; id: string },
): Promise<boolean> {
  const { count } = await prisma.maintenanceWindow.deleteMany({
    where: { id: input.id, organizationId: input.organizationId },
  });
  return count > 0;
}
