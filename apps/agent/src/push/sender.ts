import http from "node:http";
import https from "node:https";
import { RPCPULSE_VERSION } from "@rpcpulse/config";
import { errorMessage } from "../collect/proc-files.js";

export type SendOutcome =
  | { kind: "delivered"; status: number }
  /** Keep the batch and try again after `delayMs` (429, or 503 backpressure, with Retry-After). */
  | { kind: "retry-after"; status: number; delayMs: number }
  /** Keep the batch; back off exponentially (5xx, network error, 401/403 until the token is fixed). */
  | { kind: "backoff"; status: number | null; reason: string }
  /** The server refused this batch for good (other 4xx): drop it. */
  | { kind: "rejected"; status: number; reason: string };

/** Retry-After is delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | undefined, nowMs = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : null;
}

/** "Full jitter" exponential backoff: uniform in [0, min(cap, base·2^attempt)], at least 100 ms. */
export function backoffDelayMs(attempt: number, baseMs = 1000, capMs = 300_000, random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.max(100, Math.floor(random() * ceiling));
}

export function postBatch(url: URL, token: string, seq: number, gz: Buffer, timeoutMs = 30_000): Promise<SendOutcome> {
  const lib = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    const req = lib.request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "content-length": String(gz.length),
        authorization: `Bearer ${token}`,
        "user-agent": `rpcpulse-agent/${RPCPULSE_VERSION}`,
        "x-rpcpulse-batch-seq": String(seq),
        // Stamped on every attempt (the batch's own sentAt is its seal time and stays as it was):
        // the server judges clock skew on this, so a batch replayed after a long outage is accepted.
        "x-rpcpulse-sent-at": new Date().toISOString(),
      },
    });
    const timer = setTimeout(() => req.destroy(new Error(`timeout after ${timeoutMs} ms`)), timeoutMs);
    req.on("error", (error) => {
      clearTimeout(timer);
      resolve({ kind: "backoff", status: null, reason: errorMessage(error) });
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        if (body.length < 2048) body += d;
      });
      res.on("end", () => {
        clearTimeout(timer);
        const status = res.statusCode ?? 0;
        const reason = `HTTP ${status}${body ? `: ${body.slice(0, 300)}` : ""}`;
        if (status >= 200 && status < 300) resolve({ kind: "delivered", status });
        else if (status === 429 || status === 503) {
          // 503 with Retry-After is the ingest API's backpressure (queue backlog past its bound):
          // wait as told rather than by our own backoff, which could be sooner.
          const delay = parseRetryAfter(res.headers["retry-after"]);
          resolve(
            delay === null
              ? { kind: "backoff", status, reason }
              : { kind: "retry-after", status, delayMs: Math.min(delay, 3_600_000) },
          );
        } else if (status >= 500 || status === 401 || status === 403 || status === 408)
          resolve({ kind: "backoff", status, reason });
        else resolve({ kind: "rejected", status, reason });
      });
      res.on("error", () => undefined);
    });
    req.end(gz);
  });
}
