import { z } from "zod";
import { API_FAMILIES, findNetwork, vantageRegionSchema } from "@rpcpulse/domain";

/**
 * One validator per setting, shared by the three sources (config file, RPCPULSE_* variables,
 * flags) so a value means the same wherever it is given. Flags and variables are strings; the
 * JSON file may also use numbers, booleans and arrays.
 */

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/;

export function parseDurationMs(value: string | number): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value * 1000 : null;
  const m = DURATION.exec(value.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2] ?? "s";
  return Math.round(
    n * (unit === "ms" ? 1 : unit === "s" ? 1000 : unit === "m" ? 60_000 : unit === "h" ? 3_600_000 : 86_400_000),
  );
}

const duration = (minMs: number, maxMs: number) =>
  z.union([z.number(), z.string()]).transform((v, ctx) => {
    const ms = parseDurationMs(v);
    if (ms === null) {
      ctx.addIssue({
        code: "custom",
        message: `expected a duration like 10, 10s, 500ms or 1m (seconds when no unit), got ${JSON.stringify(v)}`,
      });
      return z.NEVER;
    }
    if (ms < minMs || ms > maxMs) {
      ctx.addIssue({
        code: "custom",
        message: `must be between ${minMs / 1000}s and ${maxMs / 1000}s, got ${JSON.stringify(v)}`,
      });
      return z.NEVER;
    }
    return ms;
  });

const intIn = (min: number, max: number) =>
  z.union([z.number(), z.string()]).transform((v, ctx) => {
    const n = typeof v === "number" ? v : /^\s*-?\d+\s*$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: "custom", message: `expected an integer from ${min} to ${max}, got ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    return n;
  });

const list = (v: string | readonly unknown[]): unknown[] =>
  typeof v === "string"
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "")
    : [...v];

const ports = z.union([z.string(), z.array(z.union([z.number(), z.string()]))]).transform((v, ctx) => {
  const items = list(v);
  const out: number[] = [];
  for (const item of items) {
    const n = typeof item === "number" ? item : /^\d+$/.test(String(item)) ? Number(item) : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > 65535) {
      ctx.addIssue({
        code: "custom",
        message: `ports must be integers from 1 to 65535 (comma-separated), got ${JSON.stringify(item)}`,
      });
      return z.NEVER;
    }
    out.push(n);
  }
  if (out.length === 0 || out.length > 64) {
    ctx.addIssue({ code: "custom", message: `expected 1 to 64 ports, got ${out.length}` });
    return z.NEVER;
  }
  return [...new Set(out)].sort((a, b) => a - b);
});

const absolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => p.startsWith("/"), "must be an absolute path");

const paths = z.union([z.string(), z.array(z.string())]).transform((v, ctx) => {
  const items = list(v).map(String);
  for (const p of items) {
    if (!p.startsWith("/") || p.length > 4096) {
      ctx.addIssue({ code: "custom", message: `must be absolute paths, got ${JSON.stringify(p)}` });
      return z.NEVER;
    }
  }
  if (items.length > 31) {
    ctx.addIssue({ code: "custom", message: "at most 31 data directories" });
    return z.NEVER;
  }
  return items;
});

const bool = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0", "yes", "no"])])
  .transform((v) => v === true || v === "true" || v === "1" || v === "yes");

const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an http:// or https:// URL");

const networks = z.union([z.string(), z.array(z.string())]).transform((v, ctx) => {
  const items = [...new Set(list(v).map(String))];
  for (const slug of items) {
    if (!findNetwork(slug)) {
      ctx.addIssue({
        code: "custom",
        message: `unknown network ${JSON.stringify(slug)} (e.g. hive, ethereum-mainnet)`,
      });
      return z.NEVER;
    }
  }
  if (items.length === 0 || items.length > 8) {
    ctx.addIssue({ code: "custom", message: `expected 1 to 8 networks, got ${items.length}` });
    return z.NEVER;
  }
  return items;
});

const HOSTNAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * A listen address: `host:port`, `[ipv6]:port`, or a bare `port` / `:port`, which binds
 * 127.0.0.1 (only an explicit address exposes the endpoint beyond this host).
 */
export const listenAddress = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const text = String(v).trim();
  const m = /^(?:(\[[0-9A-Fa-f:.]+\]|[^:[\]]*):)?(\d{1,5})$/.exec(text);
  const port = m ? Number(m[2]) : Number.NaN;
  let host = m?.[1] ?? "";
  if (host.startsWith("[")) host = host.slice(1, -1);
  const hostOk =
    host === "" || z.ipv4().safeParse(host).success || z.ipv6().safeParse(host).success || HOSTNAME.test(host);
  if (!m || !hostOk || !Number.isInteger(port) || port < 1 || port > 65535) {
    ctx.addIssue({
      code: "custom",
      message: `expected host:port, [ipv6]:port or a port (1-65535; a bare port binds 127.0.0.1), got ${JSON.stringify(v)}`,
    });
    return z.NEVER;
  }
  return { host: host === "" ? "127.0.0.1" : host, port };
});

export const fieldSchemas = {
  family: z.enum(API_FAMILIES, { error: `must be one of ${API_FAMILIES.join(", ")}` }),
  rpcUrl: httpUrl,
  interval: duration(1000, 3_600_000),
  ports,
  dataDirs: paths,
  topN: intIn(1, 100),
  dryRun: bool,
  nodeId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._:-]+$/, "letters, digits and . _ : - only"),
  pid: intIn(1, 4_194_304),
  processName: z.string().min(1).max(255),
  stateDir: absolutePath,
  ingestUrl: httpUrl,
  tokenFile: absolutePath,
  rpcTimeout: duration(100, 60_000),
  spoolMaxMb: intIn(1, 10_240),
  spoolMaxAge: duration(60_000, 30 * 86_400_000),
  logLevel: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]),
  vantage: bool,
  vantageRegion: vantageRegionSchema,
  vantageNetworks: networks,
  directoryUrl: httpUrl,
  vantageInterval: duration(10_000, 3_600_000),
  vantageConcurrency: intIn(1, 16),
  vantageRate: intIn(1, 50),
  vantageAllowPrivate: bool,
  metricsListen: listenAddress,
  textfile: absolutePath.refine((p) => p.endsWith(".prom"), "must end in .prom (node_exporter reads only *.prom)"),
  nodeMetricsUrl: httpUrl,
  beaconUrl: httpUrl,
};

export type FieldName = keyof typeof fieldSchemas;
export type FieldValues = { [K in FieldName]: z.output<(typeof fieldSchemas)[K]> };
export type PartialFields = Partial<FieldValues>;
