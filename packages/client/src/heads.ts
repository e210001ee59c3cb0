import { createJsonRpcCall, type CallContext, type JsonRpcCallOptions } from "./json-rpc.js";

/** Per-family head reading: for the picker's built-in head check and for `headOf` in the failover transport. */

export type ChainFamily = "hive" | "ethereum" | "substrate";

function hexToNumber(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^0x[0-9a-f]+$/i.test(value)) return undefined;
  const n = Number.parseInt(value.slice(2), 16);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Head block from a Hive `get_dynamic_global_properties` answer (condenser_api or database_api). */
export function hiveHeadOf(result: unknown): number | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const head = (result as { head_block_number?: unknown }).head_block_number;
  return typeof head === "number" && Number.isSafeInteger(head) ? head : undefined;
}

/** Head block from an `eth_blockNumber` answer (hex quantity) or a viem bigint. */
export function ethereumHeadOf(result: unknown): number | undefined {
  if (typeof result === "bigint") return Number(result);
  return hexToNumber(result);
}

/** Head block from a Substrate `chain_getHeader` answer. */
export function substrateHeadOf(result: unknown): number | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  return hexToNumber((result as { number?: unknown }).number);
}

const HEAD_CALLS: Record<ChainFamily, { method: string; params: unknown[]; read: (r: unknown) => number | undefined }> =
  {
    hive: { method: "condenser_api.get_dynamic_global_properties", params: [], read: hiveHeadOf },
    ethereum: { method: "eth_blockNumber", params: [], read: ethereumHeadOf },
    substrate: { method: "chain_getHeader", params: [], read: substrateHeadOf },
  };

/** A `getHead(url, ctx)` for the picker's `headCheck`, reading the family's head call over HTTP JSON-RPC. */
export function createHeadReader(
  family: ChainFamily,
  options: JsonRpcCallOptions = {},
): (url: string, ctx: CallContext) => Promise<number> {
  const call = createJsonRpcCall(options);
  const spec = HEAD_CALLS[family];
  return async (url, ctx) => {
    const head = spec.read(await call(url, { method: spec.method, params: spec.params }, ctx));
    if (head === undefined) throw new Error(`${url}: ${spec.method} returned no head`);
    return head;
  };
}

/** `headOf` for JSON-RPC requests of a family: the head when the request was the family's head call. */
export function jsonRpcHeadOf(
  family: ChainFamily,
): (request: { method: string }, result: unknown) => number | undefined {
  const spec = HEAD_CALLS[family];
  const methods =
    family === "hive"
      ? new Set(["condenser_api.get_dynamic_global_properties", "database_api.get_dynamic_global_properties"])
      : new Set([spec.method]);
  return (request, result) => (methods.has(request.method) ? spec.read(result) : undefined);
}
