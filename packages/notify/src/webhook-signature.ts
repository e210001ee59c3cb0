import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Webhook signatures, Stripe-style: header `X-RpcPulse-Signature: t=<unix seconds>,v1=<hex>` where
 * hex = HMAC-SHA256(secret, `${t}.${rawBody}`). Receivers recompute over the raw bytes, compare in
 * constant time and refuse timestamps outside the replay window (default 5 minutes).
 */
export const SIGNATURE_HEADER = "x-rpcpulse-signature";
export const DEFAULT_TOLERANCE_SEC = 300;
const SECRET_PREFIX = "whsec_";

/** A new signing secret (shown once to the user, stored encrypted). */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString("base64url")}`;
}

function hmacHex(secret: string, timestamp: number, body: string | Uint8Array): string {
  const mac = createHmac("sha256", secret);
  mac.update(`${timestamp}.`);
  mac.update(body);
  return mac.digest("hex");
}

export function signWebhook(secret: string, body: string | Uint8Array, now: Date = new Date()): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${hmacHex(secret, t, body)}`;
}

export type SignatureVerdict = { ok: true; timestamp: number } | { ok: false; reason: string };

export function verifyWebhookSignature(input: {
  secret: string;
  header: string | null | undefined;
  body: string | Uint8Array;
  toleranceSec?: number;
  now?: Date;
}): SignatureVerdict {
  if (!input.header) return { ok: false, reason: "missing signature header" };
  let t: number | null = null;
  const candidates: string[] = [];
  for (const part of input.header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t" && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) candidates.push(value);
  }
  if (t === null) return { ok: false, reason: "no timestamp in signature header" };
  if (candidates.length === 0) return { ok: false, reason: "no v1 signature in header" };
  const nowSec = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const tolerance = input.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  if (Math.abs(nowSec - t) > tolerance) return { ok: false, reason: "timestamp outside the replay window" };
  const expected = Buffer.from(hmacHex(input.secret, t, input.body), "hex");
  const match = candidates.some((c) => timingSafeEqual(Buffer.from(c, "hex"), expected));
  return match ? { ok: true, timestamp: t } : { ok: false, reason: "signature mismatch" };
}
