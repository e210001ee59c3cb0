import type { SqlClient } from "@rpcpulse/db/sql";
import {
  type BeaconResponse,
  DirectoryCapability,
  DirectoryWindow,
  getEndpointDetail,
  getEndpointHistory,
  HistoryRange,
  listDirectoryChains,
  listRankedEndpoints,
  type RankedListResponse,
} from "@rpcpulse/services/directory";
import { z } from "zod";

/** Query of GET /api/v1/chains/{network}/endpoints (unknown parameters are ignored). */
export const RankedListQuery = z.object({
  region: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, "a region slug: lowercase letters, digits and '-'")
    .optional(),
  capability: z
    .string()
    .max(200)
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(DirectoryCapability))
    .optional(),
  minScore: z.coerce.number().min(0).max(100).optional(),
  window: DirectoryWindow.optional(),
});
export type RankedListQuery = z.infer<typeof RankedListQuery>;

export const HistoryQuery = z.object({ range: HistoryRange.optional() });

const NetworkParam = z.string().regex(/^[a-z0-9-]{1,64}$/, "a network slug such as hive or ethereum-mainnet");

function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) out[k === "capabilities" ? "capability" : k] = v;
  return out;
}

export interface DirectoryApiDeps {
  sql: SqlClient;
}

export async function readRankedList(deps: DirectoryApiDeps, network: string, url: URL): Promise<RankedListResponse> {
  const q = RankedListQuery.parse(queryObject(url));
  return listRankedEndpoints(deps, {
    network: NetworkParam.parse(network),
    ...(q.region ? { region: q.region } : {}),
    ...(q.capability ? { capabilities: q.capability } : {}),
    ...(q.minScore !== undefined ? { minScore: q.minScore } : {}),
    ...(q.window ? { window: q.window } : {}),
  });
}

/** Beacon-compatible list: what Hive apps read from beacon.peakd.com/api/nodes. */
export async function readBeaconList(deps: DirectoryApiDeps, network: string, url: URL): Promise<BeaconResponse> {
  const list = await readRankedList(deps, network, url);
  return list.endpoints.map((e) => ({
    name: e.name,
    endpoint: e.url,
    version: e.version ?? "",
    score: Math.round(e.score),
    success: e.success,
    fail: e.fail,
    features: e.features,
    updated_at: e.updatedAt,
    lastUpdate: e.updatedAt,
  }));
}

export const readChains = (deps: DirectoryApiDeps) => listDirectoryChains(deps);
export const readEndpoint = (deps: DirectoryApiDeps, id: string) => getEndpointDetail(deps, { endpointId: id });

export async function readHistory(deps: DirectoryApiDeps, id: string, url: URL) {
  const q = HistoryQuery.parse(queryObject(url));
  return getEndpointHistory(deps, {
    endpointId: z.string().uuid("endpoint id must be a UUID").parse(id),
    range: q.range ?? "24h",
  });
}
