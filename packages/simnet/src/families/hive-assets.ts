import { createHash } from "node:crypto";
import type { ChainNetwork } from "../network.js";
import { deriveBytes } from "../random.js";

/** Hive and Steem differ in asset symbols and in the names of the fields that hold them. */
export interface HiveFlavor {
  chain: "hive" | "steem";
  /** HIVE / STEEM */
  core: string;
  /** HBD / SBD */
  dollar: string;
  /** Lower-case field stems: "hive"/"steem", "hbd"/"sbd". */
  coreField: string;
  dollarField: string;
  witnesses: readonly string[];
  accounts: readonly string[];
  apps: readonly string[];
}

export const HIVE_FLAVOR: HiveFlavor = {
  chain: "hive",
  core: "HIVE",
  dollar: "HBD",
  coreField: "hive",
  dollarField: "hbd",
  witnesses: [
    "gtg",
    "blocktrades",
    "arcange",
    "good-karma",
    "deathwing",
    "themarkymark",
    "ausbitbank",
    "quochuy",
    "stoodkev",
    "yabapmatt",
    "emrebeyler",
    "roelandp",
    "guiltyparties",
    "steempeak",
    "abit",
    "therealwolf",
    "smooth.witness",
    "someguy123",
    "ocd-witness",
    "threespeak",
    "mahdiyari",
  ],
  accounts: [
    "gtg",
    "blocktrades",
    "hiveio",
    "arcange",
    "good-karma",
    "ecency",
    "peakd",
    "splinterlands",
    "leofinance",
    "ausbitbank",
    "acidyo",
    "taskmaster4450",
  ],
  apps: ["peakd/2025.11.1", "ecency/3.3.2-vision", "hiveblog/0.1", "leothreads/0.3"],
};

export const STEEM_FLAVOR: HiveFlavor = {
  chain: "steem",
  core: "STEEM",
  dollar: "SBD",
  coreField: "steem",
  dollarField: "sbd",
  witnesses: [
    "justyy",
    "ety001",
    "steem-dragon",
    "hinomaru-jp",
    "upvu.witness",
    "dev.supporters",
    "symbionts",
    "future.witness",
    "bangla.witness",
    "rnt1",
    "steem.history",
    "roadofrich",
    "smt-wherein",
    "maiyude",
    "nutbox.mine",
    "steemchiller",
    "jswit",
    "steemcurator01",
    "beyondweb3",
    "pennsif.witness",
    "boylikegirl.wit",
  ],
  accounts: [
    "steemit",
    "justyy",
    "ety001",
    "steemcurator01",
    "hinomaru-jp",
    "upvu",
    "steemchiller",
    "dev.supporters",
    "symbionts",
    "pennsif",
    "bangla.witness",
    "roadofrich",
  ],
  apps: ["steemit/0.2", "steemcoinpan/0.1", "busy/2.5.6"],
};

export const NAI = { core: "@@000000021", dollar: "@@000000013", vests: "@@000000037" } as const;

/** Integer amount in the smallest unit (3 decimals for HIVE/HBD, 6 for VESTS). */
export function formatLegacy(amount: bigint, precision: number, symbol: string): string {
  const neg = amount < 0n;
  const abs = neg ? -amount : amount;
  const scale = 10n ** BigInt(precision);
  return `${neg ? "-" : ""}${abs / scale}.${(abs % scale).toString().padStart(precision, "0")} ${symbol}`;
}

export function formatNai(
  amount: bigint,
  precision: number,
  nai: string,
): { amount: string; precision: number; nai: string } {
  return { amount: amount.toString(), precision, nai };
}

/** Asset formatter for one API: condenser uses "1.000 HIVE" strings, database_api uses NAI objects. */
export interface AssetFormat {
  core(amount: bigint): unknown;
  dollar(amount: bigint): unknown;
  vests(amount: bigint): unknown;
}

export function createAssetFormat(flavor: HiveFlavor, style: "legacy" | "nai"): AssetFormat {
  if (style === "legacy") {
    return {
      core: (a) => formatLegacy(a, 3, flavor.core),
      dollar: (a) => formatLegacy(a, 3, flavor.dollar),
      vests: (a) => formatLegacy(a, 6, "VESTS"),
    };
  }
  return {
    core: (a) => formatNai(a, 3, NAI.core),
    dollar: (a) => formatNai(a, 3, NAI.dollar),
    vests: (a) => formatNai(a, 6, NAI.vests),
  };
}

/** "2026-11-22T02:40:00": the time format of hived (UTC, no zone, no fraction). */
export function formatHiveTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** Hive block id: 20 bytes, the first 4 the block number big-endian. */
export function hiveBlockId(network: ChainNetwork, height: number): string {
  if (height <= 0) return "0".repeat(40);
  const bytes = Buffer.alloc(20);
  bytes.writeUInt32BE(height >>> 0, 0);
  network.blockBytes(height, "hive-id", 16).copy(bytes, 4);
  return bytes.toString("hex");
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function encodeBase58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString("hex") || "0"}`);
  let out = "";
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A well-formed Graphene public key string ("STM" + base58(key + ripemd160 checksum)). */
export function derivePublicKey(...parts: Array<string | number>): string {
  const key = Buffer.concat([Buffer.from([2]), deriveBytes(32, "pubkey", ...parts)]);
  const checksum = createHash("ripemd160").update(key).digest().subarray(0, 4);
  return `STM${encodeBase58(Buffer.concat([key, checksum]))}`;
}

/** 65-byte compact signature hex, as in block headers and transactions. */
export function deriveSignature(...parts: Array<string | number>): string {
  return `1f${deriveBytes(64, "sig", ...parts).toString("hex")}`;
}
