import type { ChainLatency } from "@rpcpulse/domain";
import { timedRequest } from "./http-timing.js";

export class RpcError extends Error {
  constructor(
    readonly method: string,
    message: string,
  ) {
    super(`${method}: ${message}`);
    this.name = "RpcError";
  }
}

export interface RpcCall {
  method: string;
  params: unknown;
}

export type RpcOutcome = { ok: true; result: unknown } | { ok: false; error: string };

let nextId = 1;

function parseJson(body: Buffer, what: string): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new RpcError(what, `invalid JSON response (${body.length} bytes)`);
  }
}

function outcomeOf(call: RpcCall, message: unknown): RpcOutcome {
  if (typeof message !== "object" || message === null)
    return { ok: false, error: `${call.method}: not a JSON-RPC response` };
  const m = message as { result?: unknown; error?: { code?: unknown; message?: unknown } };
  if (m.error !== undefined && m.error !== null) {
    return {
      ok: false,
      error: `${call.method}: ${String(m.error.message ?? "error")} (code ${String(m.error.code ?? "?")})`,
    };
  }
  if (!("result" in m)) return { ok: false, error: `${call.method}: response has neither result nor error` };
  return { ok: true, result: m.result };
}

/** One JSON-RPC 2.0 call on a fresh, timed connection; throws RpcError on transport or RPC errors. */
export async function rpcCall(
  url: URL,
  call: RpcCall,
  timeoutMs: number,
): Promise<{ result: unknown; timing: ChainLatency }> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: call.method, params: call.params });
  const res = await timedRequest({ url, method: "POST", body, timeoutMs });
  if (res.status < 200 || res.status >= 300) {
    // Some nodes answer RPC errors with a non-2xx status and a JSON-RPC body.
    const parsed = (() => {
      try {
        return JSON.parse(res.body.toString("utf8")) as unknown;
      } catch {
        return null;
      }
    })();
    const outcome = parsed ? outcomeOf(call, parsed) : null;
    throw new RpcError(call.method, outcome && !outcome.ok ? outcome.error : `HTTP ${res.status}`);
  }
  const outcome = outcomeOf(call, parseJson(res.body, call.method));
  if (!outcome.ok) throw new RpcError(call.method, outcome.error.slice(call.method.length + 2));
  return { result: outcome.result, timing: res.timing };
}

/**
 * Several calls in one JSON-RPC batch (one connection). When the server does not answer with an
 * array (batches disabled, e.g. substrate --rpc-disable-batch-requests), falls back to one call each.
 */
export async function rpcBatch(url: URL, calls: readonly RpcCall[], timeoutMs: number): Promise<RpcOutcome[]> {
  if (calls.length === 0) return [];
  const ids = calls.map(() => nextId++);
  const body = JSON.stringify(
    calls.map((c, i) => ({ jsonrpc: "2.0", id: ids[i], method: c.method, params: c.params })),
  );
  let parsed: unknown = null;
  try {
    const res = await timedRequest({ url, method: "POST", body, timeoutMs });
    parsed = res.status >= 200 && res.status < 300 ? parseJson(res.body, "batch") : null;
  } catch {
    parsed = null;
  }
  if (Array.isArray(parsed)) {
    const byId = new Map<unknown, unknown>(parsed.map((m) => [(m as { id?: unknown })?.id, m]));
    return calls.map((c, i) =>
      byId.has(ids[i])
        ? outcomeOf(c, byId.get(ids[i]))
        : { ok: false, error: `${c.method}: missing from batch response` },
    );
  }
  const out: RpcOutcome[] = [];
  for (const c of calls) {
    try {
      out.push({ ok: true, result: (await rpcCall(url, c, timeoutMs)).result });
    } catch (error) {
      out.push({ ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return out;
}

/** Hex QUANTITY ("0x1b4") or decimal number/string → number; null otherwise. */
export function toBlockNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value !== "string" || value === "") return null;
  const n =
    value.startsWith("0x") || value.startsWith("0X")
      ? Number.parseInt(value.slice(2), 16)
      : /^\d+$/.test(value)
        ? Number(value)
        : Number.NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}
