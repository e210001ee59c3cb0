import { isPlainObject, RpcError } from "../jsonrpc.js";
import { formatHiveTime } from "./hive-assets.js";

/** hived's argument checks and fc::exception errors, shared by the Hive family's API handlers. */

/** An fc::exception as hived serialises it: message with the assertion, data with the format. */
export function fcError(
  code: number,
  kind: { code: number; name: string; label: string },
  format: string,
  data: Record<string, unknown>,
  file: string,
  method: string,
): RpcError {
  const text = format.replace(/\$\{([a-z_]+)\}/gi, (_, key: string) => String(data[key]));
  return new RpcError(code, `${kind.label}:${text}`, {
    code: kind.code,
    name: kind.name,
    message: kind.label,
    stack: [
      {
        context: { level: "error", file, line: 0, method, hostname: "", timestamp: formatHiveTime(Date.now()) },
        format,
        data,
      },
    ],
  });
}

export const ASSERT = { code: 10, name: "assert_exception", label: "Assert Exception" };
export const BAD_CAST = { code: 7, name: "bad_cast_exception", label: "Bad Cast" };

export function assertError(
  format: string,
  data: Record<string, unknown>,
  method: string,
  file = "condenser_api.cpp",
): RpcError {
  return fcError(-32003, ASSERT, format, data, file, method);
}

export function castError(from: string, to: string, method: string): RpcError {
  return fcError(-32000, BAD_CAST, "Invalid cast from ${from} to ${to}", { from, to }, "variant.cpp", method);
}

export function condenserArgs(params: unknown, expected: number, method: string): unknown[] {
  const args = params === undefined ? [] : params;
  if (!Array.isArray(args)) throw castError("object_type", "array_type", method);
  if (args.length !== expected) {
    throw assertError(
      "args.size() == ${expected}: Expected ${expected} argument(s), was ${size}",
      { expected, size: args.length },
      method,
    );
  }
  return args;
}

export function toUint(value: unknown, method: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  throw castError(typeof value === "string" ? "string_type" : `${typeof value}_type`, "uint64_type", method);
}

export function toInt(value: unknown, method: string): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value);
  throw castError(`${typeof value}_type`, "int64_type", method);
}

export function namedArgs(params: unknown, method: string): Record<string, unknown> {
  if (params === undefined || (Array.isArray(params) && params.length === 0)) return {};
  if (!isPlainObject(params)) throw castError("array_type", "object_type", method);
  return params;
}
