import { WIRE_LIMITS, type ApiFamily, type ChainGroup } from "@rpcpulse/domain";
import { EthereumAdapter } from "./ethereum.js";
import { HiveAdapter } from "./hive.js";
import { SidecarAdapter } from "./sidecar.js";
import { SubstrateAdapter } from "./substrate.js";
import type { AdapterOptions, ChainAdapter } from "./types.js";

export type { ChainAdapter, ChainReading } from "./types.js";

/** Default local endpoints per family (hived webserver-http-endpoint, geth/nethermind, substrate, sidecar). */
export const DEFAULT_RPC_URLS: Record<ApiFamily, string> = {
  hive: "http://127.0.0.1:8091",
  ethereum: "http://127.0.0.1:8545",
  substrate: "http://127.0.0.1:9944",
  sidecar: "http://127.0.0.1:8080",
};

export function createChainAdapter(family: ApiFamily, options: AdapterOptions): ChainAdapter {
  switch (family) {
    case "hive":
      return new HiveAdapter(options);
    case "ethereum":
      return new EthereumAdapter(options);
    case "substrate":
      return new SubstrateAdapter(options);
    case "sidecar":
      return new SidecarAdapter(options);
  }
}

const clip = (s: string): string => (s.length > 500 ? `${s.slice(0, 497)}...` : s);

/**
 * collected − head timestamp, kept negative when the head is "from the future" (this host's clock is
 * behind the chain's block time): that is clock skew to report, not an age of 0. Bounded by the wire
 * limits so a wildly wrong clock still yields a valid sample.
 */
export function measureHeadAge(
  nowMs: number,
  headTimeMs: number | null,
): Pick<ChainGroup, "headAgeMs" | "headAgeSkewed"> {
  if (headTimeMs === null) return { headAgeMs: null };
  const age = Math.min(WIRE_LIMITS.maxHeadAgeMs, Math.max(-WIRE_LIMITS.maxHeadAheadMs, nowMs - headTimeMs));
  return age < 0 ? { headAgeMs: age, headAgeSkewed: true } : { headAgeMs: age };
}

/**
 * Read the node and shape the wire group. ok=false when the head call failed (error says why);
 * with ok=true, error carries the first failed auxiliary call, if any.
 */
export async function collectChain(adapter: ChainAdapter, nowMs: () => number): Promise<ChainGroup> {
  try {
    const r = await adapter.read();
    const now = nowMs();
    return {
      family: adapter.family,
      ok: true,
      headBlock: r.headBlock,
      headHash: r.headHash,
      headTime: r.headTimeMs === null ? null : new Date(r.headTimeMs).toISOString(),
      headTimeSource: r.headTimeSource,
      ...measureHeadAge(now, r.headTimeMs),
      finalizedBlock: r.finalizedBlock,
      peers: r.peers,
      syncing: r.syncing,
      clientVersion: r.clientVersion,
      latency: r.latency,
      error: r.warnings[0] ? clip(r.warnings[0]) : null,
    };
  } catch (error) {
    return {
      family: adapter.family,
      ok: false,
      headBlock: null,
      headHash: null,
      headTime: null,
      headTimeSource: null,
      headAgeMs: null,
      finalizedBlock: null,
      peers: null,
      syncing: null,
      clientVersion: null,
      latency: null,
      error: clip(error instanceof Error ? error.message : String(error)),
    };
  }
}
