import { createHash, createHmac, randomBytes } from "node:crypto";
import { AppError } from "@rpcpulse/config";
import {
  confirmSubscriberByTokenHash,
  deleteSubscriberByUnsubscribeHash,
  findPublicStatusPage,
  setSubscriberUnsubscribeHash,
  upsertPendingSubscriber,
} from "@rpcpulse/db/status";
import { type PrismaClient } from "@rpcpulse/db/sql";
import type { QueueTarget } from "@rpcpulse/queue";
import { z } from "zod";
import { encryptSecret, type SecretsKey } from "../alerting/channel-secrets.js";
import { enqueueEmail, enqueueWebhookPost } from "../alerting/enqueue-delivery.js";
import { hitRateLimit, type RateLimitStore } from "./rate-limit.js";

/**
 * Subscriptions to a public page, by email or signed webhook, with double opt-in.
 *  - The confirmation token is random (32 bytes), sent once, stored as its SHA-256, single-use.
 *  - The unsubscribe token is HMAC-SHA-256(server key, subscriber id): every notification can
 *    carry a working one-click link, yet the database holds only its SHA-256 (a database leak
 *    alone cannot unsubscribe anyone).
 *  - Webhook signing secrets are sealed with the server key (needed in clear to sign).
 * Rate limits: 5 requests per 10 minutes per client address (when the adapter can tell it),
 * 60 per hour per page.
 */

export interface SubscriptionDeps {
  prisma: PrismaClient;
  queue: QueueTarget;
  secretsKey: SecretsKey;
  rateLimit: RateLimitStore;
  /** Key prefix of the rate-limit counters (QUEUE_PREFIX or a test prefix). */
  rateLimitPrefix: string;
  /** Absolute origin used in links (APP_BASE_URL). */
  appBaseUrl: string;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function unsubscribeTokenFor(key: SecretsKey, subscriberId: string): string {
  return createHmac("sha256", key).update(`status-unsubscribe:${subscriberId}`).digest("base64url");
}

export const SubscribeInput = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("email"),
    target: z.string().trim().toLowerCase().email("A valid email address is needed.").max(254),
  }),
  z.object({
    kind: z.literal("webhook"),
    target: z
      .string()
      .trim()
      .url("A valid URL is needed.")
      .max(2048)
      .refine((v) => v.startsWith("https://"), "Webhooks must use https://"),
  }),
]);

export type SubscribeResult =
  | { status: "pending"; kind: "email" }
  | { status: "pending"; kind: "webhook"; signingSecret: string }
  | { status: "already-confirmed"; kind: "webhook" };

export async function subscribeToStatusPage(
  deps: SubscriptionDeps,
  input: { slug: string; clientKey: string | null; fields: unknown },
): Promise<SubscribeResult> {
  const fields = SubscribeInput.parse(input.fields);
  if (input.clientKey) {
    await hitRateLimit(deps.rateLimit, {
      key: `${deps.rateLimitPrefix}:status-subscribe:ip:${hashToken(input.clientKey).slice(0, 32)}`,
      max: 5,
      windowMs: 10 * 60_000,
    });
  }
  const page = await findPublicStatusPage(deps.prisma, { slug: input.slug });
  if (!page) throw new AppError("NOT_FOUND", "Status page not found.");
  await hitRateLimit(deps.rateLimit, {
    key: `${deps.rateLimitPrefix}:status-subscribe:page:${page.id}`,
    max: 60,
    windowMs: 3_600_000,
  });

  const confirmToken = randomBytes(32).toString("base64url");
  const signingSecret = fields.kind === "webhook" ? `whsec_${randomBytes(24).toString("base64url")}` : null;
  // The unsubscribe hash needs the id: insert with a random placeholder hash, then set the real one.
  const placeholder = hashToken(randomBytes(32).toString("hex"));
  const row = await upsertPendingSubscriber(deps.prisma, {
    pageId: page.id,
    kind: fields.kind,
    target: fields.target,
    webhookSecret: signingSecret ? encryptSecret(deps.secretsKey, signingSecret) : null,
    confirmTokenHash: hashToken(confirmToken),
    unsubscribeTokenHash: placeholder,
  });
  if (row.alreadyConfirmed) {
    // Email: answer exactly like a new subscription (no address oracle), send nothing.
    if (fields.kind === "email") return { status: "pending", kind: "email" };
    return { status: "already-confirmed", kind: "webhook" };
  }
  const unsubscribeToken = unsubscribeTokenFor(deps.secretsKey, row.id);
  await setSubscriberUnsubscribeHash(deps.prisma, {
    subscriberId: row.id,
    unsubscribeTokenHash: hashToken(unsubscribeToken),
  });
  const base = deps.appBaseUrl.replace(/\/$/, "");
  const confirmUrl = `${base}/status/${page.slug}/subscription/confirm?token=${confirmToken}`;
  const unsubscribeUrl = `${base}/status/${page.slug}/subscription/unsubscribe?token=${unsubscribeToken}`;
  if (fields.kind === "email") {
    await enqueueEmail(deps, {
      organizationId: page.organizationId,
      purpose: "status-subscription-confirm",
      to: fields.target,
      subject: `Confirm your subscription to ${page.title}`,
      text: `Someone (hopefully you) asked to receive incident updates of ${page.title}.\n\nConfirm: ${confirmUrl}\n\nIf this was not you, ignore this email; nothing is sent until you confirm.\n`,
    });
    return { status: "pending", kind: "email" };
  }
  await enqueueWebhookPost(deps, {
    organizationId: page.organizationId,
    purpose: "status-subscription-confirm",
    url: fields.target,
    body: {
      type: "subscription.confirm",
      page: { title: page.title, url: `${base}/status/${page.slug}` },
      confirmUrl,
      unsubscribeUrl,
    },
    signingSecret,
  });
  return { status: "pending", kind: "webhook", signingSecret: signingSecret as string };
}

const Token = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/);

export async function confirmStatusSubscription(
  deps: { prisma: PrismaClient },
  input: { token: string; now?: Date },
): Promise<{ confirmed: boolean }> {
  const token = Token.safeParse(input.token);
  if (!token.success) return { confirmed: false };
  const row = await confirmSubscriberByTokenHash(deps.prisma, {
    confirmTokenHash: hashToken(token.data),
    at: input.now ?? new Date(),
  });
  return { confirmed: row !== null };
}

export async function unsubscribeFromStatusPage(
  deps: { prisma: PrismaClient },
  input: { token: string },
): Promise<{ unsubscribed: boolean }> {
  const token = Token.safeParse(input.token);
  if (!token.success) return { unsubscribed: false };
  const row = await deleteSubscriberByUnsubscribeHash(deps.prisma, hashToken(token.data));
  return { unsubscribed: row !== null };
}
