import "server-only";
import { getEndpointDetail, listRankedEndpoints, type RankedListResponse } from "@rpcpulse/services/directory";
import type { SqlClient } from "@rpcpulse/db/sql";
import type { RankedRow, RegionLatency } from "./view-model.js";

type Endpoint = RankedListResponse["endpoints"][number];

export interface RegionalLatency {
  /** Regions with a ranking snapshot for this network (besides "all"). */
  regions: string[];
  /** endpoint id -> latency per region. */
  byEndpoint: Map<string, RegionLatency[]>;
}

/**
 * Latency of every listed endpoint in each probing region: one ranked list per region (each one
 * indexed read, memoised by the service). The regions are those the top endpoint has snapshots in.
 */
export async function loadRegionLatency(
  deps: { sql: SqlClient },
  list: RankedListResponse,
  search: { window: RankedListResponse["window"] },
): Promise<RegionalLatency> {
  const byEndpoint = new Map<string, RegionLatency[]>();
  const top = list.endpoints[0];
  if (!top) return { regions: [], byEndpoint };
  const detail = await getEndpointDetail(deps, { endpointId: top.id });
  const regions = [...new Set(detail.windows.map((w) => w.region))].filter((r) => r !== "all").sort();
  const lists = await Promise.all(
    regions.map((region) => listRankedEndpoints(deps, { network: list.network, region, window: search.window })),
  );
  lists.forEach((l, i) => {
    const region = regions[i] as string;
    for (const e of l.endpoints) {
      const entry = byEndpoint.get(e.id) ?? [];
      if (e.latency.p50Ms === null && e.latency.p95Ms === null) continue;
      entry.push({ region, p50Ms: e.latency.p50Ms, p95Ms: e.latency.p95Ms });
      byEndpoint.set(e.id, entry);
    }
  });
  return { regions, byEndpoint };
}

export function toRankedRows(endpoints: readonly Endpoint[], regional: RegionalLatency): RankedRow[] {
  return endpoints.map((e) => {
    const known = e.capabilitiesCheckedAt !== null;
    const perRegion = regional.byEndpoint.get(e.id);
    return {
      id: e.id,
      rank: e.rank,
      name: e.name,
      provider: e.provider,
      url: e.url,
      score: e.score,
      status: e.health,
      operatorVerified: e.operatorVerified,
      claimedBy: e.claimedBy,
      latency:
        perRegion && perRegion.length > 0
          ? perRegion
          : e.latency.p50Ms === null && e.latency.p95Ms === null
            ? []
            : [{ region: "all", p50Ms: e.latency.p50Ms, p95Ms: e.latency.p95Ms }],
      lagBlocks: e.lagBlocks,
      uptime: e.uptime,
      uptimeLagging: e.uptimeLagging,
      capabilities: {
        archive: known ? e.capabilities.archive : null,
        websocket: known ? e.capabilities.websocket : null,
        trace: known ? e.capabilities.trace : null,
        batch: known ? e.capabilities.batch : null,
      },
    };
  });
}
