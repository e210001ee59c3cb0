import type { FailureKind, FetchLike } from "./types.js";

/** A minimal JSON-RPC 2.0 over HTTP POST call, for the failover transport and the built-in head checks. */

export interface JsonRpcRequest {
  method: string;
  params?: unknown;
}

export interface CallContext {
  /** Aborted when the attempt times out or the transport gives up. */
  signal: AbortSignal;
}

/** The endpoint answered with a non-2xx HTTP status and no JSON-RPC body. */
export class HttpStatusError extends Error {
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`HTTP ${status} from ${url}`);
    this.name = "HttpStatusError";
  }
}

/** The endpoint answered with a JSON-RPC error object. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "JsonRpcError";
  }
}

/** An attempt ran past its per-attempt timeout. */
export class AttemptTimeoutError extends Error {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`no answer from ${url} within ${timeoutMs} ms`);
    this.name = "AttemptTimeoutError";
  }
}

/**
 * JSON-RPC codes that say "this endpoint cannot serve this now" rather than "the request is wrong":
 * method not found (the node lacks an API), internal error, limit exceeded, and the message-matched
 * server errors below (Hive's rate limit; geth's "header not found" from a node that is behind).
 */
const ENDPOINT_CODES = new Set([-32601, -32603, -32005]);
const ENDPOINT_MESSAGES = /too many requests|rate limit|header not found|unknown block|not synced|syncing/i;

export interface FailureVerdict {
  /** Try another endpoint? */
  retry: boolean;
  kind: FailureKind;
}

/** Default classification of an error thrown by a call: fail over, or hand it back to the caller. */
export function classifyError(error: unknown): FailureVerdict {
  if (error instanceof AttemptTimeoutError) return { retry: true, kind: "timeout" };
  if (error instanceof HttpStatusError) return { retry: true, kind: error.status === 429 ? "rate-limited" : "http" };
  if (error instanceof JsonRpcError) return classifyJsonRpcError(error.code, error.message);
  // Network failures (fetch's TypeError, resets), abort errors and anything unknown: the endpoint is at fault.
  return { retry: true, kind: "error" };
}

/** A JSON-RPC error object: the endpoint's fault (fail over) or the request's (hand it back)? */
export function classifyJsonRpcError(code: number, message: string): FailureVerdict {
  if (ENDPOINT_CODES.has(code) || ENDPOINT_MESSAGES.test(message))
    return { retry: true, kind: code === -32005 || /rate|many/i.test(message) ? "rate-limited" : "error" };
  return { retry: false, kind: "error" };
}

export interface JsonRpcCallOptions {
  fetch?: FetchLike;
  headers?: Record<string, string>;
}

let nextId = 1;

/** Build `call(url, { method, params }, { signal })` that POSTs one JSON-RPC request and returns `result`. */
export function createJsonRpcCall(
  options: JsonRpcCallOptions = {},
): (url: string, request: JsonRpcRequest, ctx?: CallContext) => Promise<unknown> {
  return async (url, request, ctx) => {
    const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const id = nextId++;
    const response = await doFetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...options.headers },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: request.method, params: request.params ?? [] }),
      signal: ctx?.signal,
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpStatusError(url, response.ok ? 502 : response.status);
    }
    if (typeof body !== "object" || body === null || Array.isArray(body))
      throw new HttpStatusError(url, response.status);
    const message = body as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
    if (message.error) {
      const code = typeof message.error.code === "number" ? message.error.code : -32603;
      throw new JsonRpcError(code, String(message.error.message ?? "JSON-RPC error"), message.error.data);
    }
    if (!response.ok) throw new HttpStatusError(url, response.status);
    if (!("result" in message)) throw new HttpStatusError(url, 502);
    return message.result;
  };
}
