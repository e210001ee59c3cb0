import { buildWireFormatJsonSchema } from "@rpcpulse/domain";

/**
 * The leaf checks of the hand-written wire check, each deciding exactly as the zod type it names
 * (zod v4: numbers are finite, `.int()` means a safe integer, string lengths count code points).
 */

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** z.number().int().nonnegative() (count, bytes). */
export const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
export const isCountOrNull = (v: unknown): boolean => v === null || isCount(v);
/** z.number().int() */
export const isInt = (v: unknown): boolean => Number.isSafeInteger(v);
export const isIntOrNull = (v: unknown): boolean => v === null || Number.isSafeInteger(v);
/** z.number().int() within [min, max]. */
export const isIntIn = (v: unknown, min: number, max: number): boolean =>
  Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
/** z.number().int().positive() */
export const isPositiveInt = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) > 0;
/** z.number() within [min, max] (NaN and ±Infinity fail the comparisons, as zod refuses them). */
export const isNumberIn = (v: unknown, min: number, max: number): boolean =>
  typeof v === "number" && v >= min && v <= max;
/** z.number().nonnegative() */
export const isNonNegative = (v: unknown): boolean => typeof v === "number" && v >= 0 && v !== Infinity;
export const isBoolean = (v: unknown): boolean => v === true || v === false;
export const isBooleanOrNull = (v: unknown): boolean => v === null || v === true || v === false;

/** Unicode code points, a well-formed surrogate pair counting once (as zod and ajv count). */
function codePointLength(s: string): number {
  let count = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

/**
 * z.string().min(min).max(max). A code point is one or two UTF-16 units, so at most `max` units
 * always fits and at least 2 × `min` units always reaches the floor; only otherwise are they counted.
 */
export function isString(v: unknown, min: number, max: number): boolean {
  if (typeof v !== "string") return false;
  if (v.length <= max && v.length >= 2 * min) return true;
  const n = codePointLength(v);
  return n >= min && n <= max;
}
export const isStringOrNull = (v: unknown, min: number, max: number): boolean => v === null || isString(v, min, max);

export function isArrayOf(v: unknown, max: number, item: (x: unknown) => boolean): boolean {
  if (!Array.isArray(v) || v.length > max) return false;
  for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
  return true;
}

/**
 * The regular expressions of the contract, read from its JSON Schema (so they are zod's own). Not
 * IPv6: zod checks it with the URL parser (isValidIPv6), not with the pattern it publishes.
 */
export interface WirePatterns {
  dateTime: RegExp;
  ipv4: RegExp;
  uuid: RegExp;
  installId: RegExp;
  execHash: RegExp;
  region: RegExp;
}

export function readWirePatterns(): WirePatterns {
  const schema = buildWireFormatJsonSchema();
  const byFormat = new Map<string, Set<string>>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    if (typeof node.format === "string" && typeof node.pattern === "string") {
      const set = byFormat.get(node.format) ?? new Set<string>();
      byFormat.set(node.format, set.add(node.pattern));
    }
    Object.values(node).forEach(walk);
  };
  walk(schema);
  const format = (name: string): RegExp => {
    const patterns = [...(byFormat.get(name) ?? [])];
    if (patterns.length !== 1) throw new Error(`wire schema: expected one "${name}" pattern, found ${patterns.length}`);
    return new RegExp(patterns[0] as string);
  };
  const at = (...path: (string | number)[]): RegExp => {
    let node: unknown = schema;
    for (const key of path) node = (node as Record<string | number, unknown> | undefined)?.[key];
    const pattern = isObject(node) ? node.pattern : undefined;
    if (typeof pattern !== "string") throw new Error(`wire schema: no pattern at ${path.join("/")}`);
    return new RegExp(pattern);
  };
  const sample = ["properties", "samples", "items", "properties"];
  return {
    dateTime: format("date-time"),
    ipv4: format("ipv4"),
    uuid: format("uuid"),
    installId: at("properties", "installId"),
    execHash: at(...sample, "beacon", "anyOf", 0, "properties", "execHash", "anyOf", 0),
    region: at("properties", "vantage", "properties", "region"),
  };
}
