import type {
  EndpointCapabilities,
  EndpointHealthStatus,
  EndpointStatus,
  FallbackEndpoint,
  RankedEndpoint,
  RankedList,
} from "./types.js";

/**
 * Hand-written validation of the directory API response. A dependency-free check keeps the browser bundle
 * small (zod would add tens of kB for one schema). Unknown fields are ignored; required fields with the
 * wrong type reject the whole response so a broken API never replaces the last good list.
 */

export class InvalidListError extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`invalid endpoint list at ${path}: ${detail}`);
    this.name = "InvalidListError";
  }
}

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function obj(value: unknown, path: string): Obj {
  if (!isObject(value)) throw new InvalidListError(path, "expected an object");
  return value;
}

function str(value: unknown, path: string): string {
  if (typeof value !== "string") throw new InvalidListError(path, "expected a string");
  return value;
}

function nullableStr(value: unknown, path: string): string | null {
  return value === null || value === undefined ? null : str(value, path);
}

function num(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new InvalidListError(path, "expected a number");
  return value;
}

function nullableNum(value: unknown, path: string): number | null {
  return value === null || value === undefined ? null : num(value, path);
}

function httpUrl(value: unknown, path: string, protocols: readonly string[]): string {
  const text = str(value, path);
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new InvalidListError(path, "not a URL");
  }
  if (!protocols.includes(parsed.protocol)) throw new InvalidListError(path, `protocol ${parsed.protocol} not allowed`);
  return text;
}

const STATUSES: readonly EndpointStatus[] = ["active", "probation", "dead"];
const HEALTH: readonly EndpointHealthStatus[] = ["healthy", "degraded", "lagging", "stale", "probation", "dead"];

function parseCapabilities(value: unknown, path: string): EndpointCapabilities {
  const raw = value === undefined || value === null ? {} : obj(value, path);
  const caps: EndpointCapabilities = { archive: false, websocket: false, trace: false, batch: false };
  for (const [key, flag] of Object.entries(raw)) {
    if (typeof flag === "boolean") caps[key] = flag;
  }
  return caps;
}

export function parseEndpoint(value: unknown, path: string): RankedEndpoint {
  const e = obj(value, path);
  const status = str(e.status, `${path}.status`);
  if (!STATUSES.includes(status as EndpointStatus)) throw new InvalidListError(`${path}.status`, `unknown ${status}`);
  const latency = isObject(e.latency) ? e.latency : {};
  const uptime = isObject(e.uptime) ? e.uptime : {};
  const score = num(e.score, `${path}.score`);
  if (score < 0 || score > 100) throw new InvalidListError(`${path}.score`, "outside 0-100");
  const endpoint: RankedEndpoint = {
    id: str(e.id, `${path}.id`),
    url: httpUrl(e.url, `${path}.url`, ["http:", "https:"]),
    wsUrl: e.wsUrl == null ? null : httpUrl(e.wsUrl, `${path}.wsUrl`, ["ws:", "wss:"]),
    name: str(e.name, `${path}.name`),
    provider: nullableStr(e.provider, `${path}.provider`),
    status: status as EndpointStatus,
    rank: num(e.rank, `${path}.rank`),
    score,
    latency: {
      p50Ms: nullableNum(latency.p50Ms, `${path}.latency.p50Ms`),
      p95Ms: nullableNum(latency.p95Ms, `${path}.latency.p95Ms`),
    },
    lagBlocks: nullableNum(e.lagBlocks, `${path}.lagBlocks`),
    uptime: {
      h24: nullableNum(uptime.h24, `${path}.uptime.h24`),
      d7: nullableNum(uptime.d7, `${path}.uptime.d7`),
      d30: nullableNum(uptime.d30, `${path}.uptime.d30`),
    },
    capabilities: parseCapabilities(e.capabilities, `${path}.capabilities`),
    operatorVerified: e.operatorVerified === true,
    updatedAt: str(e.updatedAt, `${path}.updatedAt`),
  };
  // Optional fields: kept when well-formed, ignored otherwise (older or newer API versions).
  if (typeof e.health === "string" && HEALTH.includes(e.health as EndpointHealthStatus))
    endpoint.health = e.health as EndpointHealthStatus;
  if (typeof e.family === "string") endpoint.family = e.family;
  if (Array.isArray(e.features)) endpoint.features = e.features.filter((f): f is string => typeof f === "string");
  return endpoint;
}

/** Validate a directory API body; throws InvalidListError. */
export function parseRankedList(value: unknown, expectedNetwork?: string): RankedList {
  const body = obj(value, "$");
  const network = str(body.network, "$.network");
  if (expectedNetwork !== undefined && network !== expectedNetwork)
    throw new InvalidListError("$.network", `expected ${expectedNetwork}, got ${network}`);
  if (!Array.isArray(body.endpoints)) throw new InvalidListError("$.endpoints", "expected an array");
  const list: RankedList = {
    network,
    window: typeof body.window === "string" ? body.window : "",
    updatedAt: nullableStr(body.updatedAt, "$.updatedAt"),
    endpoints: body.endpoints.map((e, i) => parseEndpoint(e, `$.endpoints[${i}]`)),
  };
  if (typeof body.region === "string") list.region = body.region;
  return list;
}

/** Turn a bundled fallback list (URLs or partial endpoints) into ranked endpoints in the given order. */
export function endpointsFromFallback(entries: readonly FallbackEndpoint[]): RankedEndpoint[] {
  return entries.map((entry, index) => {
    const partial = typeof entry === "string" ? { url: entry } : entry;
    const url = httpUrl(partial.url, `fallback[${index}].url`, ["http:", "https:"]);
    return {
      id: partial.id ?? url,
      url,
      wsUrl: partial.wsUrl ?? null,
      name: partial.name ?? new URL(url).host,
      provider: partial.provider ?? null,
      status: partial.status ?? "active",
      rank: partial.rank ?? index + 1,
      score: partial.score ?? 0,
      latency: partial.latency ?? { p50Ms: null, p95Ms: null },
      lagBlocks: partial.lagBlocks ?? null,
      uptime: partial.uptime ?? { h24: null, d7: null, d30: null },
      capabilities: {
        archive: false,
        websocket: partial.wsUrl != null,
        trace: false,
        batch: false,
        ...partial.capabilities,
      },
      operatorVerified: partial.operatorVerified ?? false,
      updatedAt: partial.updatedAt ?? "",
    };
  });
}
