import { z } from "zod";
import { ProbeError } from "../ssrf/errors.js";
import type { SafeHttpClient, SafeResponse } from "../ssrf/http-client.js";
import type { RpcErrorInfo } from "./types.js";

/** A failed call that still got a response: carries what the probe result reports. */
export class CallError extends ProbeError {
  readonly httpStatus: number | null;
  readonly rpcError: RpcErrorInfo | null;
  readonly rateLimited: boolean;
  readonly response: SafeResponse | null;

  constructor(
    reason: "http" | "rpc",
    message: string,
    details: { httpStatus: number | null; rpcError?: RpcErrorInfo | null; response?: SafeResponse | null },
  ) {
    super(reason, message);
    this.httpStatus = details.httpStatus;
    this.rpcError = details.rpcError ?? null;
    this.response = details.response ?? null;
    this.rateLimited =
      details.httpStatus === 429 || /too many requests|rate.?limit/i.test(this.rpcError?.message ?? "");
  }
}

const rpcErrorSchema = z.object({ code: z.number().optional(), message: z.string().optional() }).loose();
const rpcEnvelopeSchema = z
  .object({
    jsonrpc: z.string().optional(),
    id: z.unknown().optional(),
    result: z.unknown().optional(),
    error: rpcErrorSchema.optional(),
  })
  .loose();
type RpcEnvelope = z.infer<typeof rpcEnvelopeSchema>;

export type RpcReply =
  { ok: true; result: unknown; response: SafeResponse } | { ok: false; error: RpcErrorInfo; response: SafeResponse };

function parseJson(response: SafeResponse): unknown {
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

function toErrorInfo(e: z.infer<typeof rpcErrorSchema>): RpcErrorInfo {
  return { code: e.code ?? null, message: (e.message ?? "unknown error").slice(0, 500) };
}

function envelopeReply(env: RpcEnvelope, response: SafeResponse): RpcReply {
  if (env.error) return { ok: false, error: toErrorInfo(env.error), response };
  return { ok: true, result: env.result ?? null, response };
}

let nextId = 1;

/**
 * One JSON-RPC 2.0 call over POST. Transport failures throw ProbeError; an HTTP error without a
 * JSON-RPC body throws CallError("http"); a JSON-RPC error comes back as `{ ok: false }`.
 */
export async function callJsonRpc(
  client: SafeHttpClient,
  url: string,
  method: string,
  params: unknown,
): Promise<RpcReply> {
  const id = nextId++;
  const response = await client.request(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", method, params, id }),
  });
  const parsed = rpcEnvelopeSchema.safeParse(parseJson(response));
  if (response.status === 429) {
    const info = parsed.success && parsed.data.error ? toErrorInfo(parsed.data.error) : null;
    throw new CallError("http", `HTTP 429 from ${method}`, { httpStatus: 429, rpcError: info, response });
  }
  if (!parsed.success || (parsed.data.result === undefined && parsed.data.error === undefined)) {
    throw new CallError("http", `HTTP ${response.status}: no JSON-RPC answer to ${method}`, {
      httpStatus: response.status,
      response,
    });
  }
  return envelopeReply(parsed.data, response);
}

/**
 * A JSON-RPC batch; null when the server does not answer with an array covering every id. A 5xx/429
 * without such an array throws CallError("http").
 */
export async function callJsonRpcBatch(
  client: SafeHttpClient,
  url: string,
  calls: ReadonlyArray<{ method: string; params: unknown }>,
): Promise<RpcReply[] | null> {
  const ids = calls.map(() => nextId++);
  const response = await client.request(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map((c, i) => ({ jsonrpc: "2.0", method: c.method, params: c.params, id: ids[i] }))),
  });
  const body = parseJson(response);
  if (!Array.isArray(body) && (response.status === 429 || response.status >= 500)) {
    // An overloaded or failing server, not a refusal of batches: the caller cannot tell support from this.
    throw new CallError("http", `HTTP ${response.status}: no answer to the batch`, {
      httpStatus: response.status,
      response,
    });
  }
  if (!Array.isArray(body)) return null;
  const replies: RpcReply[] = [];
  for (const id of ids) {
    const item = body.find((b: unknown) => (b as { id?: unknown } | null)?.id === id);
    const env = rpcEnvelopeSchema.safeParse(item);
    if (!env.success) return null;
    replies.push(envelopeReply(env.data, response));
  }
  return replies;
}

/** The result of a call, or a CallError("rpc") carrying the JSON-RPC error. */
export function requireResult(reply: RpcReply, method: string): unknown {
  if (reply.ok) return reply.result;
  throw new CallError("rpc", `${method}: ${reply.error.message}`, {
    httpStatus: reply.response.status,
    rpcError: reply.error,
    response: reply.response,
  });
}

/** GET returning parsed JSON; non-2xx throws CallError("http"). */
export async function getJson(client: SafeHttpClient, url: string): Promise<{ body: unknown; response: SafeResponse }> {
  const response = await client.request(url, { method: "GET" });
  const body = parseJson(response);
  if (response.status < 200 || response.status >= 300) {
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new CallError("http", `HTTP ${response.status} for GET ${new URL(url).pathname}`, {
      httpStatus: response.status,
      rpcError: typeof message === "string" ? { code: response.status, message: message.slice(0, 500) } : null,
      response,
    });
  }
  return { body, response };
}

/** Errors that mean "this method/API does not exist here" across hived, jussi, geth, erigon, nethermind, jsonrpsee. */
export function isMethodMissing(error: RpcErrorInfo): boolean {
  if (error.code === -32601) return true;
  return /method not found|does not exist|is not available|not supported|could not find (api|method)|unknown method|unsupported method|method .* not found/i.test(
    error.message,
  );
}

/** Parses 0x-quantities, decimal strings and numbers into a safe integer, else null. */
export function toBlockNumber(value: unknown): number | null {
  let n: number;
  if (typeof value === "number") n = value;
  else if (typeof value === "string" && /^0x[0-9a-f]+$/i.test(value)) n = Number.parseInt(value.slice(2), 16);
  else if (typeof value === "string" && /^\d+$/.test(value)) n = Number(value);
  else return null;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

export function hexQuantity(n: number): string {
  return `0x${n.toString(16)}`;
}

/** Joins a base endpoint URL and a REST path, keeping any base path (e.g. https://host/sidecar). */
export function joinPath(base: string, path: string): string {
  const u = new URL(base);
  const prefix = u.pathname.endsWith("/") ? u.pathname.slice(0, -1) : u.pathname;
  const [p, q] = path.split("?");
  u.pathname = `${prefix}${p}`;
  u.search = q ? `?${q}` : "";
  return u.href;
}
