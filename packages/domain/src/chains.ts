/**
 * The chains and networks RPC Pulse knows, with their API families and timing. This catalogue is
 * the single source: the database seed, simnet, the agent's adapters and the UI all read it.
 */
export const API_FAMILIES = ["hive", "ethereum", "substrate", "sidecar"] as const;
export type ApiFamily = (typeof API_FAMILIES)[number];

export const API_FAMILY_LABELS: Record<ApiFamily, string> = {
  hive: "Hive/Steem JSON-RPC",
  ethereum: "Ethereum JSON-RPC",
  substrate: "Substrate JSON-RPC",
  sidecar: "Substrate API Sidecar (REST)",
};

/** How a chain tells that a block can no longer be reverted. */
export const FINALITY_KINDS = ["irreversible", "finalized-checkpoint", "grandpa"] as const;
export type FinalityKind = (typeof FINALITY_KINDS)[number];

export interface ChainInfo {
  slug: "hive" | "steem" | "ethereum" | "polkadot";
  name: string;
  /** API families a node of this chain may expose. */
  families: readonly ApiFamily[];
  finality: FinalityKind;
  finalityNote: string;
}

export interface NetworkInfo {
  slug: string;
  chain: ChainInfo["slug"];
  name: string;
  /** Target block (or slot) interval in milliseconds. */
  blockIntervalMs: number;
  /** Chain id where the family has one (EIP-155 for Ethereum), else null. */
  chainId: number | null;
  /** Value of system_chain for Substrate networks, or the Hive/Steem chain id hex. */
  genesisName: string | null;
  testnet: boolean;
}

export const CHAINS: readonly ChainInfo[] = [
  {
    slug: "hive",
    name: "Hive",
    families: ["hive"],
    finality: "irreversible",
    finalityNote: "Last irreversible block: confirmed by 2/3+1 of the top witnesses (about 45 s behind head).",
  },
  {
    slug: "steem",
    name: "Steem",
    families: ["hive"],
    finality: "irreversible",
    finalityNote: "Last irreversible block: confirmed by 2/3+1 of the top witnesses.",
  },
  {
    slug: "ethereum",
    name: "Ethereum",
    families: ["ethereum"],
    finality: "finalized-checkpoint",
    finalityNote: "Finalized checkpoint (Casper FFG): two epochs, about 13 minutes behind head.",
  },
  {
    slug: "polkadot",
    name: "Polkadot",
    families: ["substrate", "sidecar"],
    finality: "grandpa",
    finalityNote: "GRANDPA finalized head: usually 2-3 blocks behind the best block.",
  },
] as const;

export const NETWORKS: readonly NetworkInfo[] = [
  {
    slug: "hive",
    chain: "hive",
    name: "Hive",
    blockIntervalMs: 3000,
    chainId: null,
    genesisName: "beeab0de00000000000000000000000000000000000000000000000000000000",
    testnet: false,
  },
  {
    slug: "steem",
    chain: "steem",
    name: "Steem",
    blockIntervalMs: 3000,
    chainId: null,
    genesisName: "0000000000000000000000000000000000000000000000000000000000000000",
    testnet: false,
  },
  {
    slug: "ethereum-mainnet",
    chain: "ethereum",
    name: "Ethereum mainnet",
    blockIntervalMs: 12000,
    chainId: 1,
    genesisName: null,
    testnet: false,
  },
  {
    slug: "ethereum-sepolia",
    chain: "ethereum",
    name: "Ethereum Sepolia",
    blockIntervalMs: 12000,
    chainId: 11155111,
    genesisName: null,
    testnet: true,
  },
  {
    slug: "polkadot",
    chain: "polkadot",
    name: "Polkadot",
    blockIntervalMs: 6000,
    chainId: null,
    genesisName: "Polkadot",
    testnet: false,
  },
  {
    slug: "kusama",
    chain: "polkadot",
    name: "Kusama",
    blockIntervalMs: 6000,
    chainId: null,
    genesisName: "Kusama",
    testnet: false,
  },
] as const;

export function findNetwork(slug: string): NetworkInfo | undefined {
  return NETWORKS.find((n) => n.slug === slug);
}

export function getChainOfNetwork(network: NetworkInfo): ChainInfo {
  const chain = CHAINS.find((c) => c.slug === network.chain);
  if (!chain) throw new Error(`network ${network.slug} names unknown chain ${network.chain}`);
  return chain;
}
