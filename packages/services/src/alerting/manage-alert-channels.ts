import { AppError } from "@rpcpulse/config";
import {
  countRecentChannelDeliveries,
  deleteAlertChannelRow,
  findOrganizationAlertChannel,
  insertAlertChannel,
  insertDelivery,
  setAlertChannelEnabledRow,
  type AlertChannelRow,
} from "@rpcpulse/db/alerting";
import { ChannelConfig, generateSigningSecret, type ChannelType } from "@rpcpulse/notify";
import { z } from "zod";
import { requireRole, type ServiceContext } from "../context.js";
import type { AlertingDeps } from "./alerting-deps.js";
import { encryptSecret } from "./channel-secrets.js";
import { queueStoredDelivery, serialiseMessage } from "./enqueue-delivery.js";

const Uuid = z.string().uuid();

/** Ids that cannot exist (not a UUID) are NOT_FOUND too, never a database error. */
function requireId(id: string): string {
  if (!Uuid.safeParse(id).success) throw new AppError("NOT_FOUND", "Channel not found.");
  return id;
}

const ChannelForm = z.object({
  name: z.string().trim().min(1, "Give the channel a name.").max(80),
  type: z.enum(["email", "webhook", "slack", "discord", "telegram"]),
  /** email: comma/space separated recipients. */
  to: z.string().max(2_000).optional(),
  url: z.string().trim().max(2_048).optional(),
  botToken: z.string().trim().max(200).optional(),
  chatId: z.string().trim().max(100).optional(),
});

/** Shown in the UI instead of the secret parts: origin + first path segment, or masked token. */
function summarise(config: ChannelConfig): string {
  switch (config.type) {
    case "email":
      return config.to.join(", ");
    case "webhook": {
      const u = new URL(config.url);
      return `${u.origin}${u.pathname}`.slice(0, 200);
    }
    case "slack":
    case "discord": {
      const u = new URL(config.url);
      const first = u.pathname.split("/").filter(Boolean).slice(0, 2).join("/");
      return `${u.origin}/${first}/…`;
    }
    case "telegram":
      return `chat ${config.chatId} via bot ${config.botToken.split(":")[0]}:…`;
  }
}

function toConfig(form: z.infer<typeof ChannelForm>): ChannelConfig {
  const candidate =
    form.type === "email"
      ? { type: "email", to: (form.to ?? "").split(/[\s,;]+/).filter(Boolean) }
      : form.type === "webhook"
        ? { type: "webhook", url: form.url ?? "", secret: generateSigningSecret() }
        : form.type === "telegram"
          ? { type: "telegram", botToken: form.botToken ?? "", chatId: form.chatId ?? "" }
          : { type: form.type, url: form.url ?? "" };
  const parsed = ChannelConfig.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? "url");
    throw new AppError("VALIDATION", `${field === "to" ? "Recipients" : field}: ${issue?.message ?? "invalid"}`, {
      details: { field },
    });
  }
  return parsed.data;
}

const TEST_LIMIT_PER_MINUTE = 3;

export interface CreatedChannel {
  channel: AlertChannelRow;
  /** The webhook signing secret: returned once, here only. */
  signingSecret: string | null;
}

/** Create a channel (admins and owners). Its configuration is stored encrypted. */
export async function createAlertChannel(
  deps: Pick<AlertingDeps, "prisma" | "secretsKey">,
  ctx: ServiceContext,
  raw: unknown,
): Promise<CreatedChannel> {
  requireRole(ctx, "admin");
  const form = ChannelForm.safeParse(raw);
  if (!form.success) {
    const issue = form.error.issues[0];
    throw new AppError("VALIDATION", issue?.message ?? "Invalid channel.", {
      details: { field: String(issue?.path[0] ?? "name") },
    });
  }
  const config = toConfig(form.data);
  const result = await insertAlertChannel(deps.prisma, {
    organizationId: ctx.organizationId,
    name: form.data.name,
    type: config.type as ChannelType,
    configEnc: encryptSecret(deps.secretsKey, JSON.stringify(config)),
    summary: summarise(config),
  });
  if (!result.ok) throw new AppError("CONFLICT", "Another channel has that name.", { details: { field: "name" } });
  return { channel: result.channel, signingSecret: config.type === "webhook" ? config.secret : null };
}

export async function setAlertChannelEnabled(
  deps: Pick<AlertingDeps, "prisma">,
  ctx: ServiceContext,
  input: { channelId: string; enabled: boolean },
): Promise<void> {
  requireRole(ctx, "admin");
  requireId(input.channelId);
  if (!(await setAlertChannelEnabledRow(deps.prisma, { organizationId: ctx.organizationId, ...input }))) {
    throw new AppError("NOT_FOUND", "Channel not found.");
  }
}

export async function deleteAlertChannel(
  deps: Pick<AlertingDeps, "prisma">,
  ctx: ServiceContext,
  input: { channelId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  if (
    !(await deleteAlertChannelRow(deps.prisma, {
      organizationId: ctx.organizationId,
      channelId: requireId(input.channelId),
    }))
  ) {
    throw new AppError("NOT_FOUND", "Channel not found.");
  }
}

/** Queue a test notification on one channel (admins and owners); it shows in the delivery log. */
export async function testAlertChannel(
  deps: AlertingDeps,
  ctx: ServiceContext,
  input: { channelId: string; appBaseUrl?: string | undefined },
): Promise<{ deliveryId: string }> {
  requireRole(ctx, "admin");
  const channel = await findOrganizationAlertChannel(deps.prisma, {
    organizationId: ctx.organizationId,
    channelId: requireId(input.channelId),
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
