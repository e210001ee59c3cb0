import { AppError } from "@rpcpulse/config";
import { findAlertChannelWithSecret, findDelivery, recordDeliveryAttempt } from "@rpcpulse/db/alerting";
import {
  ChannelConfig,
  postThroughSafeClient,
  sendToChannel,
  SIGNATURE_HEADER,
  signWebhook,
  failed,
  type SendOutcome,
} from "@rpcpulse/notify";
import type { DeliverDeps } from "./alerting-deps.js";
import { decryptSecret } from "./channel-secrets.js";
import { DeliveryPayload } from "./enqueue-delivery.js";

export interface DeliveryReport {
  deliveryId: string;
  status: "sent" | "retrying" | "failed" | "skipped";
  attempt: number;
  responseCode: number | null;
  error?: string;
}

async function attemptSend(
  deps: DeliverDeps,
  row: NonNullable<Awaited<ReturnType<typeof findDelivery>>>,
): Promise<SendOutcome> {
  const parsed = DeliveryPayload.safeParse(row.payload);
  if (!parsed.success) return failed("delivery payload is unreadable", false);
  const payload = parsed.data;
  switch (payload.kind) {
    case "email": {
      if (!deps.send.mailer) return failed("SMTP is not configured on this server (SMTP_URL)", false);
      return deps.send.mailer.send({
        to: payload.to,
        subject: payload.subject,
        text: payload.text,
        html: payload.html,
        ...(payload.headers ? { headers: payload.headers } : {}),
      });
    }
    case "webhook": {
      const body = JSON.stringify(payload.body ?? null);
      const headers: Record<string, string> = { "x-rpcpulse-delivery": row.id };
      if (row.secretEnc) {
        const secret = decryptSecret(deps.secretsKey, row.secretEnc);
        headers[SIGNATURE_HEADER] = signWebhook(secret, body, deps.send.now?.() ?? new Date());
      }
      return postThroughSafeClient(deps.send.client, payload.url, body, headers);
    }
    case "channel": {
      if (!row.channelId) return failed("the channel was deleted", false);
      const channel = await findAlertChannelWithSecret(deps.prisma, row.channelId);
      if (!channel) return failed("the channel was deleted", false);
      const config = ChannelConfig.safeParse(JSON.parse(decryptSecret(deps.secretsKey, channel.configEnc)));
      if (!config.success) return failed("the channel configuration is invalid", false);
      const m = payload.message;
      return sendToChannel(config.data, { ...m, occurredAt: new Date(m.occurredAt) }, deps.send);
    }
  }
}

/**
 * Send one delivery of the log and record the attempt. Retryable failures throw (BullMQ retries
 * with backoff) until the last attempt; final failures are recorded and returned. A delivery
 * already sent is skipped, so a duplicate job never sends twice.
 */
export async function deliverNotification(
  deps: DeliverDeps,
  input: { deliveryId: string; attempt: number; maxAttempts: number },
): Promise<DeliveryReport> {
  const row = await findDelivery(deps.prisma, input.deliveryId);
  if (!row) throw new AppError("NOT_FOUND", `Delivery ${input.deliveryId} does not exist.`);
  if (row.status === "sent") {
    return { deliveryId: row.id, status: "skipped", attempt: input.attempt, responseCode: row.responseCode };
  }
  const outcome = await attemptSend(deps, row);
  const attempts = row.attempts + 1;
  const at = new Date();
  if (outcome.ok) {
    await recordDeliveryAttempt(deps.prisma, {
      id: row.id,
      status: "sent",
      attempts,
      lastError: null,
      responseCode: outcome.responseCode,
      at,
    });
    return { deliveryId: row.id, status: "sent", attempt: input.attempt, responseCode: outcome.responseCode };
  }
  const willRetry = outcome.retryable && input.attempt < input.maxAttempts;
  await recordDeliveryAttempt(deps.prisma, {
    id: row.id,
    status: willRetry ? "retrying" : "failed",
    attempts,
    lastError: outcome.error,
    responseCode: outcome.responseCode,
    at,
  });
  if (willRetry) {
    throw new AppError("UNAVAILABLE", `delivery attempt ${input.attempt} failed: ${outcome.error}`);
  }
  return {
    deliveryId: row.id,
    status: "failed",
    attempt: input.attempt,
    responseCode: outcome.responseCode,
    error: outcome.error,
  };
}
