import { CHAINS, NETWORKS } from "@rpcpulse/domain";
import type { PrismaClient } from "../generated/client/index.js";

const FINALITY = {
  irreversible: "irreversible",
  "finalized-checkpoint": "finalized_checkpoint",
  grandpa: "grandpa",
} as const;

/**
 * Upsert the chains and networks of @rpcpulse/domain (the single source of the catalogue).
 * Idempotent: running it again changes nothing; edited catalogue entries are updated in place.
 */
export async function seedCatalog(prisma: PrismaClient): Promise<{ chains: number; networks: number }> {
  for (const chain of CHAINS) {
    const data = {
      name: chain.name,
      apiFamilies: [...chain.families],
      finality: FINALITY[chain.finality],
      finalityNote: chain.finalityNote,
    };
    await prisma.chain.upsert({ where: { slug: chain.slug }, create: { slug: chain.slug, ...data }, update: data });
  }
  for (const network of NETWORKS) {
    const data = {
      chainSlug: network.chain,
      name: network.name,
      blockIntervalMs: network.blockIntervalMs,
      chainId: network.chainId === null ? null : BigInt(network.chainId),
      genesisName: network.genesisName,
      testnet: network.testnet,
    };
    await prisma.network.upsert({
      where: { slug: network.slug },
      create: { slug: network.slug, ...data },
      update: data,
    });
  }
  return { chains: CHAINS.length, networks: NETWORKS.length };
}
