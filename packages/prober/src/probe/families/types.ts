import type { SafeHttpClient, SafeResponse } from "../../ssrf/http-client.js";
import { toProbeError } from "../../ssrf/errors.js";
import { CallError, callJsonRpc, callJsonRpcBatch, getJson, isMethodMissing, joinPath, type RpcReply } from "../rpc.js";
import type { CapabilityReport, ProbeTarget, Tri } from "../types.js";

export interface HeadInfo {
  headBlock: number;
  headTime: number | null;
  finalizedBlock: number | null;
  /** The response of the head call itself (phases, bytes, status). */
  response: SafeResponse;
}

export interface FamilyContext {
  target: ProbeTarget;
  client: SafeHttpClient;
  rpc(method: string, params: unknown): Promise<RpcReply>;
  get(path: string): Promise<{ body: unknown; response: SafeResponse }>;
}

export function createFamilyContext(target: ProbeTarget, client: SafeHttpClient): FamilyContext {
  return {
    target,
    client,
    rpc: (method, params) => callJsonRpc(client, target.url, method, params),
    get: (path) => getJson(client, joinPath(target.url, path)),
  };
}

export interface NewHead {
  number: number;
  /** ms since epoch, when the header carries a timestamp. */
  timestampMs: number | null;
}

export interface WebSocketSpec {
  /** A cheap call to time over the socket. */
  call: { method: string; params: unknown };
  subscribe: {
    method: string;
    params: unknown;
    /** Parses the `result` of a notification into a head. */
    parse(result: unknown): NewHead | null;
  } | null;
}

export interface ArchiveOutcome {
  supported: Tri;
  block: number | null;
  detail: string | null;
}

export interface FamilyAdapter {
  head(ctx: FamilyContext, options: { finality: boolean }): Promise<HeadInfo>;
  archive(ctx: FamilyContext, head: number, depth: number): Promise<ArchiveOutcome>;
  methods(ctx: FamilyContext, head: number): Promise<Record<string, Tri>>;
  batch: ((ctx: FamilyContext) => Promise<Tri>) | null;
  clientVersion(ctx: FamilyContext): Promise<string | null>;
  ws: WebSocketSpec | null;
  corsMethod: "POST" | "GET";
  /** Default depth (blocks behind head) of the archive check. */
  archiveDepth: number;
  /** The keys `methods` answers, so a check that could not run them can still list them as unknown. */
  methodGroups: readonly string[];
  extras?(
    ctx: FamilyContext,
    head: number,
    options: { logsRanges: readonly number[] },
  ): Promise<Partial<Pick<CapabilityReport, "logsMaxRange" | "logsRangeLimited">>>;
}

/** Does a JSON-RPC method exist? Param errors mean yes; "not found" errors mean no; the rest is unknown. */
export async function supportsMethod(ctx: FamilyContext, method: string, params: unknown): Promise<Tri> {
  try {
    const reply = await ctx.rpc(method, params);
    if (reply.ok) return true;
    if (isMethodMissing(reply.error)) return false;
    if (
      reply.error.code === -32603 ||
      /too many requests|rate.?limit|internal error|timeout/i.test(reply.error.message)
    )
      return null;
    return true;
  } catch (err) {
    if (err instanceof CallError && err.httpStatus === 404) return false;
    return null;
  }
}

/** Does a REST route exist? 2xx and 400 (bad parameters) mean yes; 404 means no. */
export async function supportsRoute(ctx: FamilyContext, path: string): Promise<Tri> {
  try {
    await ctx.get(path);
    return true;
  } catch (err) {
    if (err instanceof CallError) {
      if (err.httpStatus === 404) return false;
      if (err.httpStatus === 400) return true;
      return null;
    }
    return toProbeError(err).reason === "too_large" ? true : null;
  }
}

/** Batch support: both answers present and well formed. */
export async function supportsBatch(
  ctx: FamilyContext,
  calls: ReadonlyArray<{ method: string; params: unknown }>,
): Promise<Tri> {
  try {
    const replies = await callJsonRpcBatch(ctx.client, ctx.target.url, calls);
    return replies !== null && replies.every((r) => r.ok);
  } catch {
    return null;
  }
}

/** Parses "2026-01-01T00:00:03" (hived prints UTC without a zone) or any ISO time into ms. */
export function parseUtcTime(text: string): number | null {
  const withZone = /([zZ]|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`;
  const ms = Date.parse(withZone);
  return Number.isFinite(ms) ? ms : null;
}
