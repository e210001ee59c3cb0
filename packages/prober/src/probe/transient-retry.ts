import { setTimeout as sleep } from "node:timers/promises";
import { toProbeError } from "../ssrf/errors.js";
import type { SafeHttpClient, SafeRequestInit, SafeResponse } from "../ssrf/http-client.js";
import type { RpcReply } from "./rpc.js";
import type { RpcErrorInfo } from "./types.js";

/**
 * Retries of transient failures inside one capability check: a 5xx, a 429, a timeout or a reset
 * connection says nothing about what the endpoint supports, so the call is repeated after a short
 * backoff before its answer counts. Probes (latency, availability) are never retried: there the
 * failure is the measurement.
 */
export interface RetryPolicy {
  /** Attempts per call, the first included. */
  attempts: number;
  /** Backoff before retry n is baseDelayMs × 2^(n−1), plus up to 25 % jitter, capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Retries per check at most, over all calls: a dead endpoint costs each call once, not `attempts` times. */
  budget: number;
}

export const CAPABILITY_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 250, maxDelayMs: 2_000, budget: 8 };

/** 429 and the 5xx a proxy or an overloaded node answers (501/505 are permanent). */
export function isTransientStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

/** Timeouts and connection failures (refused, reset, aborted); not DNS, TLS or policy refusals. */
export function isTransientError(err: unknown): boolean {
  const reason = toProbeError(err).reason;
  if (reason === "timeout" || reason === "connect") return true;
  const status = (err as { httpStatus?: unknown } | null)?.httpStatus;
  if (typeof status === "number" && isTransientStatus(status)) return true;
  return reason === "http" && /socket hang up|ECONNRESET|EPIPE|aborted/i.test(toProbeError(err).message);
}

/** JSON-RPC errors that mean "try again" (internal error, rate limit, upstream timeout). */
export function isTransientRpcError(error: RpcErrorInfo): boolean {
  return (
    error.code === -32603 || /too many requests|rate.?limit|internal error|timeout|temporarily/i.test(error.message)
  );
}

function retryAfterMs(response: SafeResponse): number | null {
  const raw = response.headers["retry-after"];
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (text === undefined) return null;
  const seconds = Number(text);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

export interface Retrier {
  /** Retries spent so far (over every call of this check). */
  readonly retries: number;
  /** The client with its requests retried on transient statuses and errors. */
  wrapClient(client: SafeHttpClient): SafeHttpClient;
  /** A JSON-RPC call retried while it answers a transient JSON-RPC error. */
  retryRpc(call: () => Promise<RpcReply>): Promise<RpcReply>;
}

/** One retrier per check: the budget is shared by every call of that check. */
export function createRetrier(
  policy: RetryPolicy,
  wait: (ms: number) => Promise<unknown> = (ms) => sleep(ms),
): Retrier {
  let retries = 0;
  const delayOf = (attempt: number): number => {
    const base = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(base * (1 + Math.random() * 0.25));
  };
  const canRetry = (attempt: number): boolean => attempt < policy.attempts && retries < policy.budget;

  /** `verdict` answers the pause before a retry (ms), or null when the result stands. */
  async function attemptLoop<T>(
    call: () => Promise<T>,
    verdict: (result: T) => number | null,
    retryThrown: boolean,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let result: T;
      try {
        result = await call();
      } catch (err) {
        if (!retryThrown || !isTransientError(err) || !canRetry(attempt)) throw err;
        retries++;
        await wait(delayOf(attempt));
        continue;
      }
      const delay = verdict(result);
      if (delay === null || !canRetry(attempt)) return result;
      retries++;
      await wait(Math.max(delay, delayOf(attempt)));
    }
  }

  return {
    get retries() {
      return retries;
    },
    wrapClient(client) {
      const request = (url: string | URL, init?: SafeRequestInit): Promise<SafeResponse> =>
        attemptLoop(
          () => client.request(url, init),
          (response) => {
            if (!isTransientStatus(response.status)) return null;
            const after = retryAfterMs(response);
            // A server asking for a longer pause than a check should take: its answer stands.
            if (after !== null && after > policy.maxDelayMs) return null;
            return after ?? 0;
          },
          true,
        );
      return {
        get options() {
          return client.options;
        },
        get ca() {
          return client.ca;
        },
        request,
        checkUrl: (url, schemes) => client.checkUrl(url, schemes),
        createLookup: (hooks) => client.createLookup(hooks),
        isAddressAllowed: (address) => client.isAddressAllowed(address),
      };
    },
    retryRpc(call) {
      // Transport failures were retried by the wrapped client already; only JSON-RPC answers here.
      return attemptLoop(call, (reply) => (!reply.ok && isTransientRpcError(reply.error) ? 0 : null), false);
    },
  };
}
