import { AppError } from "@rpcpulse/config";
import { countRecentChannelDeliveries, findOrganizationAlertChannel, insertDelivery } from "@rpcpulse/db/alerting";
import { requireRole, type ServiceContext } from "../../context.js";
import { requireUuid } from "../../ids.js";
import type { AlertingDeps } from "../alerting-deps.js";
import { queueStoredDelivery, serialiseMessage } from "../enqueue-delivery.js";

const TEST_LIMIT_PER_MINUTE = 3;

/** Queue a test notification on one channel (admins and owners); it shows in the delivery log. */
export async function testAlertChannel(
  deps: AlertingDeps,
  ctx: ServiceContext,
  input: { channelId: string; appBaseUrl?: string | undefined },
): Promise<{ deliveryId: string }> {
  requireRole(ctx, "admin");
  const channel = await findOrganizationAlertChannel(deps.prisma, {
    organizationId: ctx.organizationId,
    channelId: requireUuid(input.channelId, "Channel"),
  });
  if (!channel) throw new AppError("NOT_FOUND", "Channel not found.");
  const now = new Date();
  // A test reaches someone else's inbox or chat: at most TEST_LIMIT per channel per minute.
  const recent = await countRecentChannelDeliveries(deps.prisma, {
    channelId: channel.id,
    purpose: "test",
    since: new Date(now.getTime() - 60_000),
  });
  if (recent >= TEST_LIMIT_PER_MINUTE) {
    throw new AppError("RATE_LIMITED", "Too many tests of this channel; wait a minute.", { retryAfterSeconds: 60 });
  }
  const row = await insertDelivery(deps.prisma, {
    organizationId: ctx.organizationId,
    channelId: channel.id,
    eventId: null,
    purpose: "test",
    channelType: channel.type,
    target: channel.summary,
    payload: serialiseMessage({
      kind: "test",
      title: `Test notification for "${channel.name}"`,
      body: "If you can read this, RPC Pulse can reach this channel. No action is needed.",
      url: input.appBaseUrl
        ? `${input.appBaseUrl.replace(/\/+$/, "")}/app/o/${ctx.organizationSlug}/alerts`
        : undefined,
      fields: [{ name: "Channel", value: `${channel.name} (${channel.type})` }],
      eventId: `test-${now.getTime()}`,
      organization: ctx.organizationSlug,
      occurredAt: now,
    }),
    secretEnc: null,
  });
  await queueStoredDelivery(deps, row);
  return { deliveryId: row.id };
}
