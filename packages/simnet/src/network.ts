import { findNetwork, type NetworkInfo } from "@rpcpulse/domain";
import type { Clock } from "./clock.js";
import { deriveBytes } from "./random.js";

/** Height each network had, roughly, at DEFAULT_ANCHOR_TIME (real chains, rounded). */
const DEFAULT_ANCHOR_HEIGHTS: Record<string, number> = {
  hive: 101_200_000,
  steem: 100_900_000,
  "ethereum-mainnet": 24_140_000,
  "ethereum-sepolia": 9_950_000,
  polkadot: 28_950_000,
  kusama: 31_100_000,
};

/** 2026-01-01T00:00:00Z: a slot boundary for 3 s and 6 s chains and for Sepolia. */
export const DEFAULT_ANCHOR_TIME_MS = Date.UTC(2026, 0, 1);

/** Ethereum beacon genesis times (seconds): block timestamps fall on 12 s slots counted from them. */
export const SLOT_GENESIS_SECONDS: Record<string, number> = {
  "ethereum-mainnet": 1_606_824_023,
  "ethereum-sepolia": 1_655_733_600,
};

export interface ChainNetworkOptions {
  slug: string;
  seed: string;
  clock: Clock;
  anchorTimeMs?: number;
  anchorHeight?: number;
}

/**
 * The shared head clock of one simulated chain: the head advances one block per block interval
 * from an anchor (time, height). Every node of the network reads the same head, so lag between
 * nodes means something. Block hashes are derived from (seed, network, height) and carry the
 * height so a hash can be resolved back to its block without storing anything.
 */
export class ChainNetwork {
  readonly info: NetworkInfo;
  readonly seed: string;
  readonly clock: Clock;
  readonly intervalMs: number;
  readonly anchorTimeMs: number;
  readonly anchorHeight: number;

  constructor(options: ChainNetworkOptions) {
    const info = findNetwork(options.slug);
    if (!info) throw new Error(`unknown network ${options.slug}`);
    this.info = info;
    this.seed = options.seed;
    this.clock = options.clock;
    this.intervalMs = info.blockIntervalMs;
    this.anchorHeight = options.anchorHeight ?? DEFAULT_ANCHOR_HEIGHTS[info.slug] ?? 1_000_000;
    const anchor = options.anchorTimeMs ?? DEFAULT_ANCHOR_TIME_MS;
    const slotGenesis = SLOT_GENESIS_SECONDS[info.slug];
    // Put the anchor on a real slot boundary so timestamps look like the real chain's.
    this.anchorTimeMs =
      slotGenesis === undefined
        ? anchor - (anchor % this.intervalMs)
        : anchor - ((anchor - slotGenesis * 1000) % this.intervalMs);
  }

  get slug(): string {
    return this.info.slug;
  }

  /** Height of the network head at `ms` (never below 1). */
  heightAt(ms: number): number {
    return Math.max(1, this.anchorHeight + Math.floor((ms - this.anchorTimeMs) / this.intervalMs));
  }

  head(): number {
    return this.heightAt(this.clock.now());
  }

  /** Production time of block `height`, in ms. */
  timeOfHeight(height: number): number {
    return this.anchorTimeMs + (height - this.anchorHeight) * this.intervalMs;
  }

  /** 32-byte block hash: 28 derived bytes, then the height masked by the first 4 of them. */
  blockHash(height: number): Buffer {
    const out = Buffer.alloc(32);
    deriveBytes(28, this.seed, this.slug, "block", height).copy(out, 0);
    out.writeUInt32BE((height ^ out.readUInt32BE(0)) >>> 0, 28);
    return out;
  }

  blockHashHex(height: number): string {
    return `0x${this.blockHash(height).toString("hex")}`;
  }

  /** Height of a hash this network produced, or undefined. Accepts with or without 0x. */
  heightOfHash(hash: string): number | undefined {
    const hex = hash.startsWith("0x") ? hash.slice(2) : hash;
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) return undefined;
    const bytes = Buffer.from(hex, "hex");
    const height = (bytes.readUInt32BE(28) ^ bytes.readUInt32BE(0)) >>> 0;
    return this.blockHash(height).equals(bytes) ? height : undefined;
  }

  /** Deterministic bytes tied to one block, e.g. its state root (`label` = "state"). */
  blockBytes(height: number, label: string, bytes = 32): Buffer {
    return deriveBytes(bytes, this.seed, this.slug, label, height);
  }

  blockHex(height: number, label: string, bytes = 32): string {
    return `0x${this.blockBytes(height, label, bytes).toString("hex")}`;
  }
}
