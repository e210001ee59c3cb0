import type { IncidentImpact, IncidentStatus, PrismaClient } from "../generated/client/index.js";

export type { IncidentImpact, IncidentStatus } from "../generated/client/index.js";

/** Status components (on any page of the organization) that list this node, endpoint or producer id. */
export async function findStatusComponentsByRef(
  prisma: PrismaClient,
  input: { organizationId: string; componentRef: string },
): Promise<{ id: string; pageId: string; displayName: string }[]> {
  return prisma.statusComponent.findMany({
    where: {
      page: { organizationId: input.organizationId },
      OR: [{ nodeId: input.componentRef }, { endpointId: input.componentRef }, { producerId: input.componentRef }],
    },
    select: { id: true, pageId: true, displayName: true },
    orderBy: { createdAt: "asc" },
  });
}

export interface NewAutoIncidentRow {
  organizationId: string;
  alertKey: string;
  componentRef: string;
  componentIds: string[];
  title: string;
  impact: IncidentImpact;
  body: string;
  bodyHtml: string;
  at: Date;
}

/**
 * Open an auto incident unless an unresolved one with this alert key exists. Serialised per
 * (organization, alert key) with a transaction-scoped advisory lock, so two evaluators racing on
 * the same alert create one incident.
 */
export async function insertAutoIncidentOnce(
  prisma: PrismaClient,
  row: NewAutoIncidentRow,
): Promise<{ incidentId: string; created: boolean }> {
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`incident:${row.organizationId}:${row.alertKey}`}))`;
    const open = await tx.incident.findFirst({
      where: { organizationId: row.organizationId, alertKey: row.alertKey, resolvedAt: null },
      select: { id: true },
    });
    if (open) return { incidentId: open.id, created: false };
    const created = await tx.incident.create({
      data: {
        organizationId: row.organizationId,
        title: row.title,
        impact: row.impact,
        status: "investigating",
        auto: true,
        alertKey: row.alertKey,
        componentRef: row.componentRef,
        startedAt: row.at,
        components: { create: row.componentIds.map((componentId) => ({ componentId })) },
        updates: { create: { status: "investigating", body: row.body, bodyHtml: row.bodyHtml, createdAt: row.at } },
      },
      select: { id: true },
    });
    return { incidentId: created.id, created: true };
  });
}

export async function findOpenIncidentByAlertKey(
  prisma: PrismaClient,
  input: { organizationId?: string; alertKey: string },
): Promise<{ id: string; organizationId: string; status: IncidentStatus } | null> {
  return prisma.incident.findFirst({
    where: {
      alertKey: input.alertKey,
      resolvedAt: null,
      ...(input.organizationId ? { organizationId: input.organizationId } : {}),
    },
    select: { id: true, organizationId: true, status: true },
    orderBy: { startedAt: "desc" },
  });
}

/** Append an update; a "resolved" update also sets resolvedAt. Title/impact change when given. */
export async function appendIncidentUpdate(
  prisma: PrismaClient,
  input: {
    incidentId: string;
    status: IncidentStatus;
    body: string;
    bodyHtml: string;
    authorId: string | null;
    at: Date;
    title?: string;
    impact?: IncidentImpact;
  },
): Promise<{ updateId: string }> {
  return prisma.$transaction(async (tx) => {
    const update = await tx.incidentUpdate.create({
      data: {
        incidentId: input.incidentId,
        status: input.status,
        body: input.body,
        bodyHtml: input.bodyHtml,
        authorId: input.authorId,
        createdAt: input.at,
      },
      select: { id: true },
    });
    await tx.incident.update({
      where: { id: input.incidentId },
      data: {
        status: input.status,
        resolvedAt: input.status === "resolved" ? input.at : null,
        ...(input.title ? { title: input.title } : {}),
        ...(input.impact ? { impact: input.impact } : {}),
      },
    });
    return { updateId: update.id };
  });
}
