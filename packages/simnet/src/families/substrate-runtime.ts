import type { ChainNetwork } from "../network.js";

/**
 * Real runtime metadata and version of Polkadot/Kusama, taken from @polkadot/types-support (a
 * snapshot of the real chains that ships with @polkadot/api). simnet cannot build SCALE metadata of
 * its own; with this snapshot `ApiPromise.create` works against a simulated node.
 */
export interface RuntimeSnapshot {
  metadataHex: string;
  version: Record<string, unknown>;
}

export const GENESIS_HASHES: Record<string, string> = {
  polkadot: "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
  kusama: "0xb0a8d493285c2df73290dfb7e61f870f17b41801197a149ca93654499ea3dafe",
};

export const CHAIN_PROPERTIES: Record<string, Record<string, unknown>> = {
  polkadot: { ss58Format: 0, tokenDecimals: 10, tokenSymbol: "DOT" },
  kusama: { ss58Format: 2, tokenDecimals: 12, tokenSymbol: "KSM" },
};

/** undefined when @polkadot/types-support is not installed (it comes with @polkadot/api). */
export async function loadRuntimeSnapshot(network: ChainNetwork): Promise<RuntimeSnapshot | undefined> {
  try {
    const mod: { default: string; version: unknown } =
      network.slug === "kusama"
        ? await import("@polkadot/types-support/metadata/static-kusama")
        : await import("@polkadot/types-support/metadata/static-polkadot");
    return { metadataHex: mod.default, version: mod.version as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

/** SCALE compact encoding of a non-negative integer. */
export function encodeCompact(value: number | bigint): Buffer {
  const n = BigInt(value);
  if (n < 64n) return Buffer.from([Number(n) << 2]);
  if (n < 16384n) {
    const b = Buffer.alloc(2);
    b.writeUInt16LE((Number(n) << 2) | 1);
    return b;
  }
  if (n < 1073741824n) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(((Number(n) << 2) | 2) >>> 0);
    return b;
  }
  const bytes: number[] = [];
  for (let x = n; x > 0n; x >>= 8n) bytes.push(Number(x & 0xffn));
  return Buffer.from([((bytes.length - 4) << 2) | 3, ...bytes]);
}

const BABE = Buffer.from("BABE", "ascii");

/**
 * Digest logs of a BABE-produced block, SCALE encoded like a real Polkadot header: a PreRuntime
 * item (secondary VRF pre-digest: authority index, slot, VRF output and proof) and a Seal.
 */
export function buildDigestLogs(
  network: ChainNetwork,
  height: number,
): { preRuntime: string; seal: string; authorityIndex: number } {
  const authorityIndex = network.blockBytes(height, "authority", 4).readUInt32BE(0) % 297;
  const slot = BigInt(Math.floor(network.timeOfHeight(height) / network.intervalMs));
  const preDigest = Buffer.alloc(1 + 4 + 8);
  preDigest.writeUInt8(3, 0);
  preDigest.writeUInt32LE(authorityIndex, 1);
  preDigest.writeBigUInt64LE(slot, 5);
  const payload = Buffer.concat([
    preDigest,
    network.blockBytes(height, "vrf-output", 32),
    network.blockBytes(height, "vrf-proof", 64),
  ]);
  const preRuntime = Buffer.concat([Buffer.from([6]), BABE, encodeCompact(payload.length), payload]);
  const signature = network.blockBytes(height, "seal", 64);
  const seal = Buffer.concat([Buffer.from([5]), BABE, encodeCompact(signature.length), signature]);
  return { preRuntime: `0x${preRuntime.toString("hex")}`, seal: `0x${seal.toString("hex")}`, authorityIndex };
}

/** Well-known storage keys (twox128(pallet) ++ twox128(item)) simnet can answer. */
export const STORAGE_KEYS = {
  systemNumber: "0x26aa394eea5630e07c48ae0c9558cef702a5c1b19ab7a04f536c519aca4983ac",
  systemParentHash: "0x26aa394eea5630e07c48ae0c9558cef78a42f33323cb5ced3b44dd825fda9fcc",
  timestampNow: "0xf0c365c3cf59d671eb72da0e7a4113c49f1f0515f462cdcf84e0f1d6045dfcbb",
} as const;
