import type { PrismaClient } from "../sql/client.js";

export type AlertChannelTypeValue = "email" | "webhook" | "slack" | "discord" | "telegram";

export interface AlertChannelRow {
  id: string;
  organizationId: string;
  name: string;
  type: AlertChannelTypeValue;
  summary: string;
  enabled: boolean;
  createdAt: Date;
}

/** With the encrypted configuration: only for the delivery worker. */
export interface AlertChannelSecretRow extends AlertChannelRow {
  configEnc: string;
}

const PUBLIC_SELECT = {
  id: true,
  organizationId: true,
  name: true,
  type: true,
  summary: true,
  enabled: true,
  createdAt: true,
} as const;

export async function listOrganizationAlertChannels(
  prisma: PrismaClient,
  organizationId: string,
): Promise<AlertChannelRow[]> {
  return prisma.alertChannel.findMany({ where: { organizationId }, select: PUBLIC_SELECT, orderBy: { name: "asc" } });
}

export async function findOrganizationAlertChannel(
  prisma: PrismaClient,
  input: { organizationId: string; channelId: string },
): Promise<AlertChannelRow | null> {
  return prisma.alertChannel.findFirst({
    where: { id: input.channelId, organizationId: input.organizationId },
    select: PUBLIC_SELECT,
  });
}

export async function findAlertChannelWithSecret(
  prisma: PrismaClient,
  channelId: string,
): Promise<AlertChannelSecretRow | null> {
  return prisma.alertChannel.findUnique({ where: { id: channelId }, select: { ...PUBLIC_SELECT, configEnc: true } });
}

/** Count of the given ids that are channels of the organization (routing validation). */
export async function countOrganizationChannels(
  prisma: PrismaClient,
  input: { organizationId: string; channelIds: readonly string[] },
): Promise<number> {
  if (input.channelIds.length === 0) return 0;
  return prisma.alertChannel.count({
    where: { organizationId: input.organizationId, id: { in: [...input.channelIds] } },
  });
}

export type ChannelWriteResult = { ok: true; channel: AlertChannelRow } | { ok: false; reason: "name-taken" };

export async function insertAlertChannel(
  prisma: PrismaClient,
  input: { organizationId: string; name: string; type: AlertChannelTypeValue; configEnc: string; summary: string },
): Promise<ChannelWriteResult> {
  const taken = await prisma.alertChannel.findFirst({
    where: { organizationId: input.organizationId, name: input.name },
    select: { id: true },
  });
  if (taken) return { ok: false, reason: "name-taken" };
  const channel = await prisma.alertChannel.create({ data: input, select: PUBLIC_SELECT });
  return { ok: true, channel };
}

export async function setAlertChannelEnabledRow(
  prisma: PrismaClient,
  input: { organizationId: string; channelId: string; enabled: boolean },
): Promise<boolean> {
  const r = await prisma.alertChannel.updateMany({
    where: { id: input.channelId, organizationId: input.organizationId },
    data: { enabled: input.enabled },
  });
  return r.count === 1;
}

export async function deleteAlertChannelRow(
  prisma: PrismaClient,
  input: { organizationId: string; channelId: string },
): Promise<boolean> {
  const r = await prisma.alertChannel.deleteMany({
    where: { id: input.channelId, organizationId: input.organizationId },
  });
  return r.count === 1;
}

/** Enabled channels among `ids` (routing of one rule), with their type. */
export async function listEnabledChannels(prisma: PrismaClient, ids: readonly string[]): Promise<AlertChannelRow[]> {
  if (ids.length === 0) return [];
  return prisma.alertChannel.findMany({ where: { id: { in: [...ids] }, enabled: true }, select: PUBLIC_SELECT });
}
