import type { SafeHttpClient } from "@rpcpulse/prober";
import { z } from "zod";
import { formatAlertEmail, type Mailer } from "./email.js";
import { postThroughSafeClient } from "./http-post.js";
import { escapeHtml, kindLabel, type NotificationMessage } from "./message.js";
import { failed, type SendOutcome } from "./outcome.js";
import { SIGNATURE_HEADER, signWebhook } from "./webhook-signature.js";

export const CHANNEL_TYPES = ["email", "webhook", "slack", "discord", "telegram"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .url()
  .refine((v) => /^https?:\/\//i.test(v), "must be an http(s) URL");

/**
 * A channel's full configuration, secrets included (stored encrypted as a whole; see
 * packages/services alerting/channel-secrets.ts). Recipients and chat ids are not secret.
 */
export const ChannelConfig = z.discriminatedUnion("type", [
  z.object({ type: z.literal("email"), to: z.array(z.string().trim().email().max(254)).min(1).max(20) }),
  z.object({ type: z.literal("webhook"), url: httpUrl, secret: z.string().min(16).max(200) }),
  z.object({ type: z.literal("slack"), url: httpUrl }),
  z.object({ type: z.literal("discord"), url: httpUrl }),
  z.object({
    type: z.literal("telegram"),
    botToken: z
      .string()
      .trim()
      .regex(/^\d{3,20}:[A-Za-z0-9_-]{20,100}$/, "must look like 123456:ABC-DEF…"),
    chatId: z
      .string()
      .trim()
      .regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{4,64})$/, "must be a numeric chat id or @channel"),
  }),
]);
export type ChannelConfig = z.infer<typeof ChannelConfig>;

export interface SendContext {
  client: SafeHttpClient;
  /** The server's pooled SMTP transport; null when SMTP is not configured. */
  mailer: Mailer | null;
  /** Telegram Bot API base, default https://api.telegram.org (tests point it at a local receiver). */
  telegramApiBase?: string;
  now?: () => Date;
}

/** The generic webhook body (version 1), documented in README "Alerting". */
export function webhookBody(message: NotificationMessage): string {
  return JSON.stringify({
    version: 1,
    eventId: message.eventId,
    kind: message.kind,
    title: message.title,
    body: message.body,
    fields: message.fields,
    organization: message.organization,
    url: message.url ?? null,
    occurredAt: message.occurredAt.toISOString(),
  });
}

const SLACK_EMOJI: Record<NotificationMessage["kind"], string> = {
  firing: ":red_circle:",
  degraded: ":large_yellow_circle:",
  resolved: ":large_green_circle:",
  renotify: ":red_circle:",
  test: ":white_circle:",
};

export function slackBody(message: NotificationMessage): string {
  const head = `${SLACK_EMOJI[message.kind]} *${kindLabel(message.kind)}* ${message.title}`;
  const blocks: unknown[] = [{ type: "section", text: { type: "mrkdwn", text: `${head}\n${message.body}` } }];
  if (message.fields.length) {
    blocks.push({
      type: "section",
      fields: message.fields.slice(0, 10).map((f) => ({ type: "mrkdwn", text: `*${f.name}*\n${f.value}` })),
    });
  }
  if (message.url)
    blocks.push({ type: "context", elements: [{ type: "mrkdwn", text: `<${message.url}|Open in RPC Pulse>` }] });
  return JSON.stringify({ text: `${kindLabel(message.kind)}: ${message.title}`, blocks });
}

const DISCORD_COLOUR: Record<NotificationMessage["kind"], number> = {
  firing: 0xb42318,
  degraded: 0xd99100,
  resolved: 0x1f7a4d,
  renotify: 0xb42318,
  test: 0x667085,
};

export function discordBody(message: NotificationMessage): string {
  return JSON.stringify({
    username: "RPC Pulse",
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: `${kindLabel(message.kind)}: ${message.title}`.slice(0, 256),
        description: message.body.slice(0, 4000),
        color: DISCORD_COLOUR[message.kind],
        timestamp: message.occurredAt.toISOString(),
        ...(message.url ? { url: message.url } : {}),
        fields: message.fields
          .slice(0, 25)
          .map((f) => ({ name: f.name.slice(0, 256), value: f.value.slice(0, 1024), inline: true })),
        footer: { text: message.organization.slice(0, 2048) },
      },
    ],
  });
}

export function telegramBody(message: NotificationMessage, chatId: string): string {
  const lines = [`<b>${kindLabel(message.kind)}</b> ${escapeHtml(message.title)}`, "", escapeHtml(message.body)];
  for (const f of message.fields) lines.push(`<b>${escapeHtml(f.name)}</b>: ${escapeHtml(f.value)}`);
  if (message.url) lines.push("", `<a href="${escapeHtml(message.url)}">Open in RPC Pulse</a>`);
  return JSON.stringify({
    chat_id: chatId,
    text: lines.join("\n").slice(0, 4096),
    parse_mode: "HTML",
    disable_web_page_preview: true,
  });
}

/** Deliver one notification on one channel. Never throws for delivery failures. */
export async function sendToChannel(
  config: ChannelConfig,
  message: NotificationMessage,
  ctx: SendContext,
): Promise<SendOutcome> {
  switch (config.type) {
    case "email": {
      if (!ctx.mailer) return failed("SMTP is not configured on this server (SMTP_URL)", false);
      return ctx.mailer.send(formatAlertEmail(message, config.to));
    }
    case "webhook": {
      const body = webhookBody(message);
      const now = ctx.now?.() ?? new Date();
      return postThroughSafeClient(ctx.client, config.url, body, {
        [SIGNATURE_HEADER]: signWebhook(config.secret, body, now),
        "x-rpcpulse-event": message.eventId,
      });
    }
    case "slack":
      return postThroughSafeClient(ctx.client, config.url, slackBody(message), {});
    case "discord":
      return postThroughSafeClient(ctx.client, config.url, discordBody(message), {});
    case "telegram": {
      const base = (ctx.telegramApiBase ?? "https://api.telegram.org").replace(/\/+$/, "");
      const url = `${base}/bot${config.botToken}/sendMessage`;
      const outcome = await postThroughSafeClient(ctx.client, url, telegramBody(message, config.chatId), {});
      // Never let the bot token (part of the URL) reach the delivery log.
      return outcome.ok ? outcome : { ...outcome, error: outcome.error.split(config.botToken).join("<token>") };
    }
  }
}
