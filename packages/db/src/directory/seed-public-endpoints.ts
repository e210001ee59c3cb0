import type { SqlClient } from "../sql/sql-client.js";
import { insertPublicEndpoints, type NewPublicEndpoint } from "./public-endpoints.js";

export interface SeedEndpoint {
  network: string;
  family: "hive" | "ethereum" | "substrate" | "sidecar";
  url: string;
  name: string;
  provider: string;
  /** Where the endpoint is published (public documentation). */
  source: string;
}

/**
 * Curated public endpoints, from public documentation (each entry names its source). WebSocket
 * variants (wss://ethereum-rpc.publicnode.com, wss://rpc.ankr.com/eth/ws is keyed so left out,
 * wss://rpc.polkadot.io, wss://polkadot-rpc.dwellir.com) are found by the capability check on
 * the same host, so they are not separate listings. Seeded on probation: probing decides.
 */
export const SEED_PUBLIC_ENDPOINTS: readonly SeedEndpoint[] = [
  // Hive: the API node list of the Hive developer portal (https://developers.hive.io/quickstart/#quickstart-hive-full-nodes)
  // and the nodes PeakD Beacon (https://beacon.peakd.com) and beem's nodelist publish.
  {
    network: "hive",
    family: "hive",
    url: "https://api.hive.blog",
    name: "api.hive.blog",
    provider: "@blocktrades",
    source: "https://developers.hive.io/quickstart/",
  },
  {
    network: "hive",
    family: "hive",
    url: "https://api.deathwing.me",
    name: "api.deathwing.me",
    provider: "@deathwing",
    source: "https://developers.hive.io/quickstart/",
  },
  {
    network: "hive",
    family: "hive",
    url: "https://anyx.io",
    name: "anyx.io",
    provider: "@anyx",
    source: "https://developers.hive.io/quickstart/",
  },
  {
    network: "hive",
    family: "hive",
    url: "https://api.openhive.network",
    name: "api.openhive.network",
    provider: "@gtg",
    source: "https://developers.hive.io/quickstart/",
  },
  {
    network: "hive",
    family: "hive",
    url: "https://rpc.ausbit.dev",
    name: "rpc.ausbit.dev",
    provider: "@ausbitbank",
    source: "https://developers.hive.io/quickstart/",
  },
  {
    network: "hive",
    family: "hive",
    url: "https://hive-api.arcange.eu",
    name: "hive-api.arcange.eu",
    provider: "@arcange",
    source: "https://beacon.peakd.com",
  },
  {
    network: "hive",
    family: "hive",
    url: "https://techcoderx.com",
    name: "techcoderx.com",
    provider: "@techcoderx",
    source: "https://beacon.peakd.com",
  },
  // Steem: Steemit's public API node (https://developers.steem.io/).
  {
    network: "steem",
    family: "hive",
    url: "https://api.steemit.com",
    name: "api.steemit.com",
    provider: "Steemit",
    source: "https://developers.steem.io/",
  },
  // Ethereum mainnet: providers' own documentation (and chainid.network / Chainlist entries for chain 1).
  {
    network: "ethereum-mainnet",
    family: "ethereum",
    url: "https://ethereum-rpc.publicnode.com",
    name: "PublicNode",
    provider: "Allnodes",
    source: "https://ethereum-rpc.publicnode.com",
  },
  {
    network: "ethereum-mainnet",
    family: "ethereum",
    url: "https://eth.llamarpc.com",
    name: "LlamaRPC",
    provider: "LlamaNodes",
    source: "https://llamarpc.com/eth",
  },
  {
    network: "ethereum-mainnet",
    family: "ethereum",
    url: "https://rpc.ankr.com/eth",
    name: "Ankr",
    provider: "Ankr",
    source: "https://www.ankr.com/rpc/eth/",
  },
  {
    network: "ethereum-mainnet",
    family: "ethereum",
    url: "https://cloudflare-eth.com",
    name: "Cloudflare",
    provider: "Cloudflare",
    source: "https://developers.cloudflare.com/web3/ethereum-gateway/",
  },
  // Polkadot: the RPC endpoints listed in the Polkadot wiki and polkadot-js apps' endpoint list.
  {
    network: "polkadot",
    family: "substrate",
    url: "https://rpc.polkadot.io",
    name: "Parity",
    provider: "Parity",
    source: "https://wiki.polkadot.network/docs/maintain-endpoints",
  },
  {
    network: "polkadot",
    family: "substrate",
    url: "https://polkadot-rpc.dwellir.com",
    name: "Dwellir",
    provider: "Dwellir",
    source: "https://wiki.polkadot.network/docs/maintain-endpoints",
  },
  // Polkadot REST: Parity's public Substrate API Sidecar (README of paritytech/substrate-api-sidecar).
  {
    network: "polkadot",
    family: "sidecar",
    url: "https://polkadot-public-sidecar.parity-chains.parity.io",
    name: "Parity Sidecar",
    provider: "Parity",
    source: "https://github.com/paritytech/substrate-api-sidecar",
  },
];

/** Inserts the curated endpoints not listed yet (idempotent; never changes an existing row). */
export async function seedPublicEndpoints(
  sql: SqlClient,
  list: readonly SeedEndpoint[] = SEED_PUBLIC_ENDPOINTS,
): Promise<{ inserted: number; total: number }> {
  const rows: NewPublicEndpoint[] = list.map((e) => ({
    network: e.network,
    family: e.family,
    url: e.url,
    name: e.name,
    provider: e.provider,
    submittedBy: "catalog",
    status: "probation",
  }));
  const ids = await insertPublicEndpoints(sql, rows);
  return { inserted: ids.filter((id) => id !== null).length, total: list.length };
}
