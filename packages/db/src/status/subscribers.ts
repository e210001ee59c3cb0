import type { PrismaClient, StatusSubscriberKind } from "../generated/client/index.js";

/** Subscribers of a page. Tokens arrive here already hashed. */

export async function upsertPendingSubscriber(
  prisma: PrismaClient,
  input: {
    pageId: string;
    kind: StatusSubscriberKind;
    target: string;
    webhookSecret: string | null;
    confirmTokenHash: string;
    unsubscribeTokenHash: string;
  },
): Promise<{ id: string; alreadyConfirmed: boolean }> {
  const existing = await prisma.statusSubscriber.findUnique({
    where: { pageId_kind_target: { pageId: input.pageId, kind: input.kind, target: input.target } },
    select: { id: true, confirmedAt: true },
  });
  if (existing?.confirmedAt) return { id: existing.id, alreadyConfirmed: true };
  if (existing) {
    await prisma.statusSubscriber.update({
      where: { id: existing.id },
      data: {
        confirmTokenHash: input.confirmTokenHash,
        unsubscribeTokenHash: input.unsubscribeTokenHash,
        webhookSecret: input.webhookSecret,
      },
    });
    return { id: existing.id, alreadyConfirmed: false };
  }
  const created = await prisma.statusSubscriber.create({ data: input, select: { id: true } });
  return { id: created.id, alreadyConfirmed: false };
}

/** Set the unsubscribe hash of a subscriber once its id is known (the hash is derived from the id). */
export async function setSubscriberUnsubscribeHash(
  prisma: PrismaClient,
  input: { subscriberId: string; unsubscribeTokenHash: string },
): Promise<void> {
  await prisma.statusSubscriber.update({
    where: { id: input.subscriberId },
    data: { unsubscribeTokenHash: input.unsubscribeTokenHash },
  });
}

/** Confirm by token hash; the confirmation token is single-use (cleared). */
export async function confirmSubscriberByTokenHash(
  prisma: PrismaClient,
  input: { confirmTokenHash: string; at: Date },
): Promise<{ id: string; pageId: string } | null> {
  const row = await prisma.statusSubscriber.findUnique({
    where: { confirmTokenHash: input.confirmTokenHash },
    select: { id: true, pageId: true },
  });
  if (!row) return null;
  await prisma.statusSubscriber.update({
    where: { id: row.id },
    data: { confirmedAt: input.at, confirmTokenHash: null },
  });
  return row;
}

export async function deleteSubscriberByUnsubscribeHash(
  prisma: PrismaClient,
  unsubscribeTokenHash: string,
): Promise<{ pageId: string } | null> {
  const row = await prisma.statusSubscriber.findUnique({
    where: { unsubscribeTokenHash },
    select: { id: true, pageId: true },
  });
  if (!row) return null;
  await prisma.statusSubscriber.delete({ where: { id: row.id } });
  return { pageId: row.pageId };
}

export async function listConfirmedSubscribers(prisma: PrismaClient, pageIds: readonly string[]) {
  return prisma.statusSubscriber.findMany({
    where: { pageId: { in: [...pageIds] }, confirmedAt: { not: null } },
    select: { id: true, pageId: true, kind: true, target: true, webhookSecret: true, unsubscribeTokenHash: true },
  });
}

export async function listPageSubscribers(prisma: PrismaClient, input: { organizationId: string; pageId: string }) {
  return prisma.statusSubscriber.findMany({
    where: { pageId: input.pageId, page: { organizationId: input.organizationId } },
    select: { id: true, kind: true, target: true, confirmedAt: true, createdAt: true },
    orderBy: { createdAt: "desc" },
  });
}

export async function deletePageSubscriber(
  prisma: PrismaClient,
  input: { organizationId: string; subscriberId: string },
): Promise<boolean> {
  const { count } = await prisma.statusSubscriber.deleteMany({
    where: { id: input.subscriberId, page: { organizationId: input.organizationId } },
  });
  return count > 0;
}
