import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError, isAppError, toErrorBody, type Logger } from "@rpcpulse/config";
import { acceptAgentBatch, type IngestTimeWindow } from "@rpcpulse/services/ingest";
import { type AgentTokenVerifier } from "@rpcpulse/services/fleet";
import { type VantageEndpointFilter } from "@rpcpulse/services/directory";
import type { IngestRedis } from "../redis/ingest-redis.js";
import type { QueueLoadGate } from "../redis/queue-load-gate.js";
import type { AddressLimiter } from "./address-limiter.js";
import type { ClientAddressOf } from "./client-address.js";
import { bodyEncodingOf, checkDeclaredLength, readRequestBody, type BodyLimits } from "./read-body.js";

/**
 * POST /v1/ingest — the adapter: authenticate, rate-limit, read and validate the body, call
 * acceptAgentBatch once, map AppError once. Status codes:
 *   202 {status:"accepted"}   200 {status:"duplicate"}   400 malformed (reason + path)
 *   401 unknown/expired/revoked token   403 batch names another node   413 body/inflated cap
 *   415 content type/encoding   422 clock_skew | stale_samples | implausible_head (never retried)
 *   429 rate limited + Retry-After (per token; per client address for unauthenticated requests)
 *   503 + Retry-After: Redis (or the token store, for an uncached token) down, or the ingest queue
 *       past its backlog/parked bound (backpressure: the agent keeps the batch in its spool)
 */
export interface IngestHandlerDeps {
  verifier: AgentTokenVerifier;
  redis: IngestRedis;
  /** The client address (key) of a request; see createClientAddressResolver. */
  clientAddress: ClientAddressOf;
  /** Per-address limit of unauthenticated work, checked before any token look-up in the database. */
  unauthenticated: AddressLimiter;
  /** Accept-side backpressure on the ingest queue's backlog; without it, no bound. */
  queueLoad?: QueueLoadGate;
  validate: (body: unknown) => Parameters<typeof acceptAgentBatch>[1]["batch"];
  limits: BodyLimits;
  window: IngestTimeWindow;
  log: Logger;
  /** Endpoints an agent may report vantage probes for; without it, vantage probes are dropped. */
  vantageEndpoints?: VantageEndpointFilter;
  /** Deadline for Redis calls, so a hung Redis turns into 503 rather than a hung request. */
  redisTimeoutMs?: number;
}

const REDIS_RETRY_AFTER_S = 5;

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`redis did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const queueUnavailable = (cause: unknown) =>
  new AppError("UNAVAILABLE", "Queue unavailable; keep the batch and retry later.", {
    cause,
    retryAfterSeconds: REDIS_RETRY_AFTER_S,
  });

function statusOf(error: AppError): number {
  const reason = error.details?.reason;
  if (reason === "clock_skew" || reason === "stale_samples" || reason === "implausible_head") return 422;
  if (reason === "unsupported_media_type") return 415;
  return error.httpStatus;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(text);
}

/** The agent's per-attempt send time (X-RPCPulse-Sent-At), when present and well-formed. */
function attemptSentAtOf(req: IncomingMessage): string | undefined {
  const value = req.headers["x-rpcpulse-sent-at"];
  if (typeof value !== "string" || value.length > 40) return undefined;
  return Number.isFinite(Date.parse(value)) ? value : undefined;
}

export function createIngestHandler(deps: IngestHandlerDeps) {
  const redisMs = deps.redisTimeoutMs ?? 2_000;

  const redisCall = <T>(promise: Promise<T>): Promise<T> =>
    withDeadline(promise, redisMs).catch((error: unknown) => {
      if (isAppError(error)) throw error;
      throw queueUnavailable(error);
    });

  const tooManyUnauthenticated = (retryAfterMs: number) =>
    new AppError("RATE_LIMITED", "Too many unauthenticated requests from this address.", {
      retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
      details: { reason: "unauthenticated_rate" },
    });

  /**
   * The token's identity. Unauthenticated outcomes are charged to the client address; an address
   * whose budget is spent gets 429, and never a database look-up (beforeLookup refuses first).
   */
  const authenticate = async (req: IncomingMessage) => {
    const client = deps.clientAddress(req);
    try {
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
      if (!bearer) throw new AppError("UNAUTHENTICATED", "Send the agent token as 'Authorization: Bearer rpa_...'.");
      return await deps.verifier.verify(bearer[1] as string, {
        beforeLookup: () => {
          const budget = deps.unauthenticated.allows(client);
          if (!budget.allowed) throw tooManyUnauthenticated(budget.retryAfterMs);
        },
      });
    } catch (error) {
      if (isAppError(error) && error.code === "UNAUTHENTICATED") {
        const charged = deps.unauthenticated.charge(client);
        if (!charged.allowed) throw tooManyUnauthenticated(charged.retryAfterMs);
      }
      throw error;
    }
  };

  return async function handleIngest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAtMs = Date.now();
    let bodyRead = false;
    let tokenId: string | undefined;
    try {
      const identity = await authenticate(req);
      tokenId = identity.tokenId;

      const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
      if (type !== "application/json") {
        throw new AppError("VALIDATION", "Content-Type must be application/json.", {
          details: { reason: "unsupported_media_type" },
        });
      }
      const encoding = bodyEncodingOf(req);
      checkDeclaredLength(req, deps.limits);

      const bucket = await redisCall(deps.redis.takeToken(identity.tokenId));
      if (!bucket.allowed) {
        throw new AppError("RATE_LIMITED", "Too many requests for this token.", {
          retryAfterSeconds: Math.max(1, Math.ceil(bucket.retryAfterMs / 1000)),
        });
      }

      await deps.queueLoad?.check();

      const raw = await readRequestBody(req, encoding, deps.limits);
      bodyRead = true;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString("utf8"));
      } catch {
        throw new AppError("VALIDATION", "Body is not valid JSON.", { details: { reason: "invalid_json" } });
      }
      const batch = deps.validate(parsed);
      const result = await acceptAgentBatch(
        {
          enqueue: (job) => redisCall(deps.redis.enqueue(job)),
          ...(deps.vantageEndpoints ? { vantageEndpoints: deps.vantageEndpoints } : {}),
        },
        { identity, batch, receivedAtMs, attemptSentAt: attemptSentAtOf(req) },
        deps.window,
      );
      sendJson(res, result.status === "duplicate" ? 200 : 202, result);
      deps.log.debug(
        { tokenId, nodeId: identity.nodeId, batchSeq: batch.batchSeq, status: result.status, samples: result.samples },
        "batch",
      );
    } catch (error) {
      const appError = isAppError(error) ? error : new AppError("INTERNAL", "Internal error.", { cause: error });
      const status = statusOf(appError);
      const headers: Record<string, string> = {};
      if (appError.retryAfterSeconds !== undefined) headers["retry-after"] = String(appError.retryAfterSeconds);
      // The unread rest of a refused body is not drained: the connection is closed instead.
      if (!bodyRead && !req.readableEnded) headers.connection = "close";
      sendJson(res, status, toErrorBody(appError), headers);
      const level = status >= 500 ? "warn" : "debug";
      deps.log[level](
        {
          status,
          tokenId,
          code: appError.code,
          reason: appError.details?.reason,
          ...(status === 401 || status === 429 ? { client: deps.clientAddress(req) } : {}),
          err: status >= 500 && appError.cause instanceof Error ? appError.cause.message : undefined,
        },
        appError.message,
      );
      if (headers.connection === "close") res.once("finish", () => req.destroy());
    }
  };
}
