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
  /**
   * When block 0 (or 1) was produced, in ms since the epoch. With the block interval it bounds the
   * plausible height at any time: no chain of these families produces blocks faster than its interval.
   */
  genesisTimeMs: number;
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
    genesisTimeMs: Date.UTC(2016, 2, 24, 16, 0, 0),
  },
  {
    slug: "steem",
    chain: "steem",
    name: "Steem",
    blockIntervalMs: 3000,
    chainId: null,
    genesisName: "0000000000000000000000000000000000000000000000000000000000000000",
    testnet: false,
    genesisTimeMs: Date.UTC(2016, 2, 24, 16, 0, 0),
  },
  {
    slug: "ethereum-mainnet",
    chain: "ethereum",
    name: "Ethereum mainnet",
    blockIntervalMs: 12000,
    chainId: 1,
    genesisName: null,
    testnet: false,
    genesisTimeMs: Date.UTC(2015, 6, 30, 15, 26, 13),
  },
  {
    slug: "ethereum-sepolia",
    chain: "ethereum",
    name: "Ethereum Sepolia",
    blockIntervalMs: 12000,
    chainId: 11155111,
    genesisName: null,
    testnet: true,
    genesisTimeMs: Date.UTC(2021, 9, 23, 0, 0, 0),
  },
  {
    slug: "polkadot",
    chain: "polkadot",
    name: "Polkadot",
    blockIntervalMs: 6000,
    chainId: null,
    genesisName: "Polkadot",
    testnet: false,
    genesisTimeMs: Date.UTC(2020, 4, 26, 15, 36, 18),
  },
  {
    slug: "kusama",
    chain: "polkadot",
    name: "Kusama",
    blockIntervalMs: 6000,
    chainId: null,
    genesisName: "Kusama",
    testnet: false,
    genesisTimeMs: Date.UTC(2019, 10, 28, 0, 0, 0),
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

/** Slack added to the plausible ceiling: 2 % of the height plus a day of blocks (slot skips, clock error). */
const CEILING_SLACK_RATIO = 0.02;
const CEILING_SLACK_MS = 86_400_000;

/**
 * The highest block number a node of `network` can honestly report at `atMs`: one block per block
 * interval since genesis, plus slack. A head above it is not a fast node but a wrong chain, a broken
 * agent or an attempt to move other nodes' lag; ingest refuses it (422) instead of clamping it.
 */
export function plausibleHeadCeiling(network: NetworkInfo, atMs: number): number {
  const blocks = Math.max(0, atMs - network.genesisTimeMs + CEILING_SLACK_MS) / network.blockIntervalMs;
  return Math.ceil(blocks * (1 + CEILING_SLACK_RATIO));
}

/** Why a reported head (and finalized block) is implausible for the network at `atMs`, or null when it is plausible. */
export function checkPlausibleHead(
  network: NetworkInfo,
  atMs: number,
  head: number | null,
  finalized: number | null = null,
): string | null {
  const ceiling = plausibleHeadCeiling(network, atMs);
  if (head !== null && (!Number.isSafeInteger(head) || head < 0 || head > ceiling))
    return `head block ${head} is outside ${network.name}'s plausible range 0..${ceiling} at ${new Date(atMs).toISOString()}`;
  if (finalized !== null && (!Number.isSafeInteger(finalized) || finalized < 0 || finalized > ceiling))
    return `finalized block ${finalized} is outside ${network.name}'s plausible range 0..${ceiling}`;
  if (head !== null && finalized !== null && finalized > head)
    return `finalized block ${finalized} is above the head block ${head}`;
  return null;
}
