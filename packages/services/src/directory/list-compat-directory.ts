import { AppError } from "@rpcpulse/config";
import type { SqlClient } from "@rpcpulse/db/sql";
import { findNetwork, NETWORKS, type NetworkInfo } from "@rpcpulse/domain";
import {
  CompatQuery,
  type ChainlistRpc,
  type ChainlistRpcsResponse,
  type ErpcUpstream,
  type ErpcUpstreamsResponse,
} from "./compat-schemas.js";
import { listRankedEndpoints } from "./list-ranked-endpoints.js";
import type { DirectoryWindow, RankedEndpoint, RankedListResponse } from "./schemas.js";

/**
 * The ranked lists of the EVM networks (those with an EIP-155 chain id) in Chainlist's and eRPC's shapes.
 * Both read the same memoised snapshot as GET /api/v1/chains/{network}/endpoints (region "all"), keep
 * its order and leave out endpoints the directory lists as dead.
 */

export interface CompatEntry {
  network: NetworkInfo & { chainId: number };
  list: RankedListResponse;
}

type Deps = { sql: SqlClient; now?: () => Date };

function evmNetworks(network: string | undefined): CompatEntry["network"][] {
  const all = NETWORKS.filter((n): n is CompatEntry["network"] => n.chainId !== null);
  if (network === undefined) return all;
  if (!findNetwork(network)) throw new AppError("NOT_FOUND", `Unknown network "${network}".`);
  const match = all.filter((n) => n.slug === network);
  if (match.length === 0) throw new AppError("VALIDATION", `Network "${network}" has no EIP-155 chain id.`);
  return match;
}

async function readEntries(
  deps: Deps,
  input: CompatQuery,
): Promise<{ window: DirectoryWindow; entries: CompatEntry[] }> {
  const q = CompatQuery.parse(input);
  const networks = evmNetworks(q.network);
  const lists = await Promise.all(
    networks.map((n) => listRankedEndpoints(deps, { network: n.slug, window: q.window })),
  );
  return {
    window: q.window,
    entries: networks.map((network, i) => ({ network, list: lists[i] as RankedListResponse })),
  };
}

const listed = (e: RankedEndpoint): e is RankedEndpoint & { status: "active" | "probation" } => e.status !== "dead";

function chainlistRpc(e: RankedEndpoint & { status: "active" | "probation" }, url: string): ChainlistRpc {
  return {
    url,
    tracking: null,
    trackingDetails: null,
    isOpenSource: null,
    rpcpulse: {
      endpointId: e.id,
      name: e.name,
      provider: e.provider,
      rank: e.rank,
      score: e.score,
      status: e.status,
      health: e.health,
      operatorVerified: e.operatorVerified,
      latencyP50Ms: e.latency.p50Ms,
      uptime24h: e.uptime.h24,
    },
  };
}

/** Chainlist-style `rpcs.json`: one entry per chain id, URLs best first (HTTP, then the endpoint's WebSocket). */
export function presentChainlistRpcs(entries: readonly CompatEntry[]): ChainlistRpcsResponse {
  const out: ChainlistRpcsResponse = {};
  for (const { network, list } of entries) {
    out[String(network.chainId)] = {
      name: network.name,
      chainId: network.chainId,
      network: network.slug,
      testnet: network.testnet,
      window: list.window,
      updatedAt: list.updatedAt,
      rpcs: list.endpoints
        .filter(listed)
        .flatMap((e) => [chainlistRpc(e, e.url), ...(e.wsUrl ? [chainlistRpc(e, e.wsUrl)] : [])]),
    };
  }
  return out;
}

/** eRPC upstreams: healthy active endpoints as plain upstreams, probation/degraded ones in the "fallback" group. */
export function presentErpcUpstreams(entries: readonly CompatEntry[], window: DirectoryWindow): ErpcUpstreamsResponse {
  const upstreams: ErpcUpstream[] = [];
  for (const { network, list } of entries) {
    for (const e of list.endpoints.filter(listed)) {
      const upstream: ErpcUpstream = {
        id: `rpcpulse-${e.id}`,
        endpoint: e.url,
        type: "evm",
        evm: { chainId: network.chainId },
      };
      if (e.status === "probation" || e.health !== "healthy") upstream.group = "fallback";
      if (e.capabilities.batch) upstream.jsonRpc = { supportsBatch: true };
      upstreams.push(upstream);
    }
  }
  const updatedAt =
    entries
      .map((e) => e.list.updatedAt)
      .filter((t): t is string => t !== null)
      .sort()
      .at(-1) ?? null;
  return { window, updatedAt, upstreams };
}

/** GET /api/v1/chainlist/rpcs.json */
export async function listChainlistRpcs(deps: Deps, input: CompatQuery = {}): Promise<ChainlistRpcsResponse> {
  const { entries } = await readEntries(deps, input);
  return presentChainlistRpcs(entries);
}

/** GET /api/v1/erpc/upstreams.json */
export async function listErpcUpstreams(deps: Deps, input: CompatQuery = {}): Promise<ErpcUpstreamsResponse> {
  const { window, entries } = await readEntries(deps, input);
  return presentErpcUpstreams(entries, window);
}
