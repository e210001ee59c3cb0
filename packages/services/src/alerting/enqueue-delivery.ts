import { AppError } from "@rpcpulse/config";
import { insertDelivery, markDeliveryQueued, type DeliveryRow } from "@rpcpulse/db/alerting";
import type { NotificationMessage } from "@rpcpulse/notify";
import { enqueueDelivery } from "@rpcpulse/queue";
import { z } from "zod";
import type { AlertingDeps } from "./alerting-deps.js";
import { encryptSecret } from "./channel-secrets.js";

/** What a delivery row carries in `payload`, by kind. */
export const DeliveryPayload = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("email"),
    to: z.array(z.string()).min(1),
    subject: z.string(),
    text: z.string(),
    html: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  z.object({ kind: z.literal("webhook"), url: z.string(), body: z.unknown() }),
  z.object({
    kind: z.literal("channel"),
    message: z.object({
      kind: z.enum(["firing", "degraded", "resolved", "renotify", "test"]),
      title: z.string(),
      body: z.string(),
      url: z.string().optional(),
      fields: z.array(z.object({ name: z.string(), value: z.string() })),
      eventId: z.string(),
      organization: z.string(),
      occurredAt: z.string(),
    }),
  }),
]);
export type DeliveryPayload = z.infer<typeof DeliveryPayload>;

const Purpose = z.string().regex(/^[a-z0-9-]{1,64}$/, "purpose must be 1-64 of a-z, 0-9 and '-'");
const OrgId = z.string().min(1).max(64).nullable();

export const EnqueueEmailInput = z.object({
  organizationId: OrgId,
  purpose: Purpose,
  to: z.union([z.string().trim().email().max(254), z.array(z.string().trim().email().max(254)).min(1).max(20)]),
  subject: z.string().trim().min(1).max(300),
  text: z.string().min(1).max(100_000),
  html: z.string().max(200_000).optional(),
  headers: z.record(z.string().max(100), z.string().max(2_000)).optional(),
});

export const EnqueueWebhookInput = z.object({
  organizationId: OrgId,
  purpose: Purpose,
  url: z
    .string()
    .trim()
    .url()
    .max(2048)
    .refine((v) => /^https?:\/\//i.test(v), "must be an http(s) URL"),
  body: z.unknown(),
  signingSecret: z.string().min(16).max(200).nullable(),
});

function parse<T>(schema: z.ZodType<T>, raw: unknown): T {
  const r = schema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new AppError("VALIDATION", `${issue?.path.join(".") || "input"}: ${issue?.message ?? "invalid"}`);
  }
  return r.data;
}

/**
 * Add the notify job of a committed delivery row and mark the row queued (the outbox's second
 * step). If Redis refuses, the row stays unqueued and the worker's delivery sweeper queues it
 * later (sweepUnqueuedDeliveries): nothing is dropped, so this never throws. Returns whether the
 * job is in the queue now. The job id is the delivery id: a second enqueue is a no-op.
 */
export async function queueStoredDelivery(
  deps: Pick<AlertingDeps, "prisma" | "queue">,
  row: Pick<DeliveryRow, "id" | "organizationId">,
): Promise<boolean> {
  try {
    await enqueueDelivery(deps.queue, { deliveryId: row.id, organizationId: row.organizationId });
  } catch {
    return false;
  }
  // A failed mark only means the sweeper enqueues it again, which the job id makes harmless.
  await markDeliveryQueued(deps.prisma, { id: row.id, at: new Date() }).catch(() => undefined);
  return true;
}

/**
 * Queue one email through the server's SMTP relay (status-page confirmations and notices). The
 * delivery log row is written first (the outbox); the worker sends it with retries, and its
 * sweeper queues it if Redis was away just now.
 */
export async function enqueueEmail(
  deps: Pick<AlertingDeps, "prisma" | "queue">,
  raw: z.input<typeof EnqueueEmailInput>,
): Promise<{ deliveryId: string }> {
  const input = parse(EnqueueEmailInput, raw);
  const to = Array.isArray(input.to) ? input.to : [input.to];
  const payload: DeliveryPayload = {
    kind: "email",
    to,
    subject: input.subject,
    text: input.text,
    ...(input.html ? { html: input.html } : {}),
    ...(input.headers ? { headers: input.headers } : {}),
  };
  const row = await insertDelivery(deps.prisma, {
    organizationId: input.organizationId,
    channelId: null,
    eventId: null,
    purpose: input.purpose,
    channelType: "email",
    target: to.join(", ").slice(0, 500),
    payload,
    secretEnc: null,
  });
  await queueStoredDelivery(deps, row);
  return { deliveryId: row.id };
}

/** Queue one JSON POST to a URL (SSRF-checked when sent), HMAC-signed when a secret is given. */
export async function enqueueWebhookPost(
  deps: AlertingDeps,
  raw: z.input<typeof EnqueueWebhookInput>,
): Promise<{ deliveryId: string }> {
  const input = parse(EnqueueWebhookInput, raw);
  const url = new URL(input.url);
  const row = await insertDelivery(deps.prisma, {
    organizationId: input.organizationId,
    channelId: null,
    eventId: null,
    purpose: input.purpose,
    channelType: "webhook",
    target: `${url.origin}${url.pathname}`.slice(0, 500),
    payload: { kind: "webhook", url: input.url, body: input.body ?? null } satisfies DeliveryPayload,
    secretEnc: input.signingSecret ? encryptSecret(deps.secretsKey, input.signingSecret) : null,
  });
  await queueStoredDelivery(deps, row);
  return { deliveryId: row.id };
}

export function serialiseMessage(message: NotificationMessage): DeliveryPayload {
  return {
    kind: "channel",
    message: {
      kind: message.kind,
      title: message.title,
      body: message.body,
      ...(message.url ? { url: message.url } : {}),
      fields: message.fields,
      eventId: message.eventId,
      organization: message.organization,
      occurredAt: message.occurredAt.toISOString(),
    },
  };
}
