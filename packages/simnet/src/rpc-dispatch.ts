import { errorResponse, isPlainObject, okResponse, RpcError, toId, type JsonRpcResponse } from "./jsonrpc.js";
import type { CallContext, JsonRpcFamily, SubscriptionRequest } from "./families/types.js";

/** What the transport must do besides sending the responses (WebSocket subscriptions). */
export interface SubscriptionHooks {
  open(request: SubscriptionRequest): string;
  close(id: string): boolean;
}

export interface DispatchOptions {
  family: JsonRpcFamily;
  ctx: CallContext;
  batchLimit: number;
  /** Answer every call with the family's internal error (error injection). */
  failAll: boolean;
  /** Only on WebSocket connections. */
  subscriptions?: SubscriptionHooks;
}

function answerOne(item: unknown, options: DispatchOptions): JsonRpcResponse | null {
  const { family } = options;
  if (!isPlainObject(item) || typeof item.method !== "string")
    return errorResponse(null, family.dialect.invalidRequest());
  const id = toId(item.id);
  const isNotification = !("id" in item);
  let response: JsonRpcResponse;
  try {
    if (options.failAll) throw family.dialect.internalError();
    const result = callOne(item.method, item.params, options);
    response = okResponse(id, result);
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    response = errorResponse(id, error);
  }
  return isNotification ? null : response;
}

function callOne(method: string, params: unknown, options: DispatchOptions): unknown {
  const { family, ctx, subscriptions } = options;
  if (subscriptions) {
    const request = family.openSubscription(method, params, ctx);
    if (request) return subscriptions.open(request);
    const target = family.unsubscribeTarget(method, params);
    if (target !== undefined) {
      const found = subscriptions.close(target);
      if (!found && family.subscriptionIdStyle === "hex") throw new RpcError(-32000, "subscription not found");
      return found;
    }
  }
  return family.call(method, params, ctx);
}

/**
 * Answer a parsed JSON-RPC payload (one request or a batch). Returns the JSON to send, or
 * undefined when nothing is due (only notifications).
 */
export function dispatchJsonRpc(payload: unknown, options: DispatchOptions): unknown {
  const { family } = options;
  if (Array.isArray(payload)) {
    if (payload.length === 0) return errorResponse(null, family.dialect.emptyBatch());
    if (payload.length > options.batchLimit)
      return errorResponse(null, family.dialect.batchTooLarge(options.batchLimit));
    const answers = payload.map((item) => answerOne(item, options)).filter((a): a is JsonRpcResponse => a !== null);
    return answers.length === 0 ? undefined : answers;
  }
  return answerOne(payload, options) ?? undefined;
}

/** Parse a request body; a JSON-RPC parse error response when it is not JSON. */
export function parseJsonRpcBody(
  text: string,
  family: JsonRpcFamily,
): { ok: true; payload: unknown } | { ok: false; response: JsonRpcResponse } {
  try {
    return { ok: true, payload: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, response: errorResponse(null, family.dialect.parseError()) };
  }
}

/** Number of calls in a payload, for rate limiting (a batch costs one token per call). */
export function countCalls(payload: unknown): number {
  return Array.isArray(payload) ? Math.max(1, payload.length) : 1;
}

/** First id of a payload, for error answers that cover the whole request. */
export function firstId(payload: unknown): string | number | null {
  const first = Array.isArray(payload) ? payload[0] : payload;
  return isPlainObject(first) ? toId(first.id) : null;
}
