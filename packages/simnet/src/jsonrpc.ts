/** JSON-RPC 2.0 plumbing shared by the Hive, Ethereum and Substrate families. */

export type JsonRpcId = string | number | null;

export interface JsonRpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

export interface JsonRpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse =
  { jsonrpc: "2.0"; id: JsonRpcId; result: unknown } | { jsonrpc: "2.0"; id: JsonRpcId; error: JsonRpcErrorBody };

/** An error a handler throws to answer with a JSON-RPC error object. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }

  toBody(): JsonRpcErrorBody {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** How one node software words the protocol-level errors. */
export interface RpcDialect {
  parseError(): RpcError;
  invalidRequest(): RpcError;
  emptyBatch(): RpcError;
  batchTooLarge(limit: number): RpcError;
  methodNotFound(method: string): RpcError;
  internalError(): RpcError;
  rateLimited(): RpcError;
}

export function toId(value: unknown): JsonRpcId {
  return typeof value === "string" || typeof value === "number" ? value : null;
}

export function okResponse(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: "2.0", id, result };
}

export function errorResponse(id: JsonRpcId, error: RpcError): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: error.toBody() };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
