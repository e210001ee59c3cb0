import type { Prisma, PrismaClient } from "../sql/client.js";
import type { AlertChannelTypeValue } from "./alert-channels.js";

export type DeliveryStatusValue = "queued" | "retrying" | "sent" | "failed";

export interface DeliveryInsert {
  organizationId: string | null;
  channelId: string | null;
  eventId: string | null;
  purpose: string;
  channelType: AlertChannelTypeValue;
  target: string;
  payload: unknown;
  secretEnc: string | null;
}

export interface DeliveryRow {
  id: string;
  organizationId: string | null;
  channelId: string | null;
  eventId: string | null;
  purpose: string;
  channelType: AlertChannelTypeValue;
  target: string;
  payload: unknown;
  secretEnc: string | null;
  status: DeliveryStatusValue;
  attempts: number;
  lastError: string | null;
  responseCode: number | null;
  createdAt: Date;
  lastAttemptAt: Date | null;
  sentAt: Date | null;
  /** When the notify job was queued; null = committed but not queued yet (the sweeper's work). */
  queuedAt: Date | null;
}

export async function insertDelivery(
  db: PrismaClient | Prisma.TransactionClient,
  input: DeliveryInsert,
): Promise<DeliveryRow> {
  return db.delivery.create({ data: { ...input, payload: input.payload as Prisma.InputJsonValue } });
}

/** The notify job of this delivery is in the queue (outbox bookkeeping; first mark wins). */
export async function markDeliveryQueued(prisma: PrismaClient, input: { id: string; at: Date }): Promise<void> {
  await prisma.delivery.updateMany({ where: { id: input.id, queuedAt: null }, data: { queuedAt: input.at } });
}

/**
 * Deliveries committed but never queued, oldest first: still `queued` (no attempt recorded),
 * no queuedAt, created at or before `createdBefore` (a grace period for the writer's own enqueue).
 */
export async function listUnqueuedDeliveries(
  prisma: PrismaClient,
  input: { createdBefore: Date; limit: number },
): Promise<Pick<DeliveryRow, "id" | "organizationId" | "createdAt">[]> {
  return prisma.delivery.findMany({
    where: { queuedAt: null, status: "queued", createdAt: { lte: input.createdBefore } },
    orderBy: { createdAt: "asc" },
    take: input.limit,
    select: { id: true, organizationId: true, createdAt: true },
  });
}

export async function findDelivery(prisma: PrismaClient, id: string): Promise<DeliveryRow | null> {
  return prisma.delivery.findUnique({ where: { id } });
}

/** Record one attempt's outcome. */
export async function recordDeliveryAttempt(
  prisma: PrismaClient,
  input: {
    id: string;
    status: DeliveryStatusValue;
    attempts: number;
    lastError: string | null;
    responseCode: number | null;
    at: Date;
  },
): Promise<void> {
  await prisma.delivery.update({
    where: { id: input.id },
    data: {
      status: input.status,
      attempts: input.attempts,
      lastError: input.lastError,
      responseCode: input.responseCode,
      lastAttemptAt: input.at,
      ...(input.status === "sent" ? { sentAt: input.at } : {}),
    },
  });
}

export interface DeliveryLogRow {
  id: string;
  purpose: string;
  channelType: AlertChannelTypeValue;
  channelName: string | null;
  target: string;
  status: DeliveryStatusValue;
  attempts: number;
  lastError: string | null;
  responseCode: number | null;
  createdAt: Date;
  lastAttemptAt: Date | null;
  sentAt: Date | null;
  eventTitle: string | null;
  eventKind: string | null;
}

export interface DeliveryLogFilter {
  organizationId: string;
  status?: DeliveryStatusValue;
  channelId?: string;
  createdSince?: Date;
}

function deliveryLogWhere(f: DeliveryLogFilter): Prisma.DeliveryWhereInput {
  return {
    organizationId: f.organizationId,
    ...(f.status ? { status: f.status } : {}),
    ...(f.channelId ? { channelId: f.channelId } : {}),
    ...(f.createdSince ? { createdAt: { gte: f.createdSince } } : {}),
  };
}

/** Deliveries of the organization that match the filter (the delivery log's pager). */
export async function countOrganizationDeliveries(prisma: PrismaClient, input: DeliveryLogFilter): Promise<number> {
  return prisma.delivery.count({ where: deliveryLogWhere(input) });
}

/** The organization's delivery log, newest first, filtered, one page (`offset`, `limit`). */
export async function listOrganizationDeliveries(
  prisma: PrismaClient,
  input: DeliveryLogFilter & { limit: number; offset?: number },
): Promise<DeliveryLogRow[]> {
  const rows = await prisma.delivery.findMany({
    where: deliveryLogWhere(input),
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: input.offset ?? 0,
    take: input.limit,
    include: { channel: { select: { name: true } }, event: { select: { title: true, kind: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    purpose: r.purpose,
    channelType: r.channelType,
    channelName: r.channel?.name ?? null,
    target: r.target,
    status: r.status,
    attempts: r.attempts,
    lastError: r.lastError,
    responseCode: r.responseCode,
    createdAt: r.createdAt,
    lastAttemptAt: r.lastAttemptAt,
    sentAt: r.sentAt,
    eventTitle: r.event?.title ?? null,
    eventKind: r.event?.kind ?? null,
  }));
}

/** Deliveries of one channel and purpose created since `since` (rate limit of the Test button). */
export async function countRecentChannelDeliveries(
  prisma: PrismaClient,
  input: { channelId: string; purpose: string; since: Date },
): Promise<number> {
  return prisma.delivery.count({
    where: { channelId: input.channelId, purpose: input.purpose, createdAt: { gte: input.since } },
  });
}
