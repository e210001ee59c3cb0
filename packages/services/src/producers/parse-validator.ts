import { createHash } from "node:crypto";
import { z } from "zod";

/**
 * Polkadot/Kusama validator reads through substrate-api-sidecar (v20) parsed to what RPC Pulse keeps.
 * Shapes: the sidecar OpenAPI (https://paritytech.github.io/substrate-api-sidecar/dist/) and the
 * response types of @substrate/api-sidecar (src/types/responses): IPalletStakingProgress,
 * IPalletStakingValidator, IPalletStorageItem, IAccountStakingPayouts / IPayout. Numbers are
 * strings in every sidecar body (sanitizeNumbers).
 */

/** SS58 address prefixes (https://github.com/paritytech/ss58-registry). */
export const SS58_PREFIXES: Record<string, number> = { polkadot: 0, kusama: 2 };

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function decodeBase58(text: string): Buffer | null {
  let n = 0n;
  for (const ch of text) {
    const v = BASE58.indexOf(ch);
    if (v < 0) return null;
    n = n * 58n + BigInt(v);
  }
  const bytes: number[] = [];
  for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn));
  for (const ch of text) {
    if (ch !== "1") break;
    bytes.unshift(0);
  }
  return Buffer.from(bytes);
}

/**
 * Why an SS58 address is not a 32-byte account of `network` (null when it is): base58, a
 * one-byte prefix (0 Polkadot, 2 Kusama), 32 key bytes and the first 2 bytes of
 * blake2b-512("SS58PRE" ++ prefix ++ key).
 */
export function checkSs58Address(address: string, network: string): string | null {
  const expected = SS58_PREFIXES[network];
  if (expected === undefined) return `No SS58 prefix known for ${network}.`;
  const raw = decodeBase58(address);
  if (!raw) return "An SS58 address uses base58 characters only.";
  if (raw.length !== 35) return "An SS58 account address holds a 32-byte key (47-48 characters).";
  const body = raw.subarray(0, 33);
  const sum = createHash("blake2b512")
    .update(Buffer.concat([Buffer.from("SS58PRE"), body]))
    .digest()
    .subarray(0, 2);
  if (!sum.equals(raw.subarray(33))) return "The SS58 checksum does not match: a character is wrong.";
  if (raw[0] !== expected) return `This address is for SS58 prefix ${raw[0]}, not ${network} (prefix ${expected}).`;
  return null;
}

const num = z.string().regex(/^\d{1,40}$/);
const at = z.object({ hash: z.string(), height: num }).loose();

/** GET /pallets/staking/progress */
export const StakingProgress = z
  .object({
    at,
    activeEra: num,
    nextActiveEraEstimate: num.nullable().optional(),
    nextSessionEstimate: num.nullable(),
    validatorSet: z.array(z.string()).nullable().optional(),
  })
  .loose();

/** GET /pallets/staking/validators */
export const StakingValidators = z
  .object({ validators: z.array(z.object({ address: z.string(), status: z.string() }).loose()) })
  .loose();

/** GET /pallets/{pallet}/storage/{item}: the value's shape depends on the item. */
export function storageItem<T extends z.ZodType>(value: T) {
  return z.object({ at, storageItem: z.string(), value }).loose();
}
export const ActiveEraValue = z.object({ index: num, start: num.nullable() }).loose().nullable();
export const EraRewardPointsValue = z.object({ total: num, individual: z.record(z.string(), num) }).loose();
/** timestamp.now: milliseconds since the epoch. */
export const TimestampValue = num;
export const ValidatorPrefsValue = z.object({ commission: num, blocked: z.boolean() }).loose();
/** session.nextKeys: the runtime's SessionKeys struct (field order = the struct's), or null. */
export const NextKeysValue = z.record(z.string(), z.string().regex(/^0x[0-9a-fA-F]*$/)).nullable();

/** GET /accounts/{stash}/staking-payouts */
export const StakingPayouts = z
  .object({
    erasPayouts: z.array(
      z.union([
        z
          .object({
            era: num,
            payouts: z.array(
              z.object({ validatorId: z.string(), nominatorStakingPayout: num, claimed: z.boolean() }).loose(),
            ),
          })
          .loose(),
        // An era without rewards for the account: `{ message }`.
        z.object({ message: z.string() }).loose(),
      ]),
    ),
  })
  .loose();

/** The event sidecar renders in /blocks/{n}: `{ method: { pallet, method }, data }`. */
const SidecarEvent = z.object({
  method: z.object({ pallet: z.string(), method: z.string() }).loose(),
  data: z.unknown(),
});
export const SidecarBlockEvents = z
  .object({
    number: num,
    onInitialize: z
      .object({ events: z.array(SidecarEvent) })
      .loose()
      .optional(),
    extrinsics: z.array(z.object({ events: z.array(SidecarEvent).default([]) }).loose()).default([]),
    onFinalize: z
      .object({ events: z.array(SidecarEvent) })
      .loose()
      .optional(),
  })
  .loose();

/**
 * Stashes named by imOnline.SomeOffline events of a block (data[0] = Vec<(ValidatorId, Exposure)>,
 * each tuple rendered as an array whose first item is the stash).
 */
export function findOfflineStashes(raw: unknown): Set<string> {
  const block = SidecarBlockEvents.parse(raw);
  const events = [
    ...(block.onInitialize?.events ?? []),
    ...block.extrinsics.flatMap((x) => x.events),
    ...(block.onFinalize?.events ?? []),
  ];
  const out = new Set<string>();
  for (const e of events) {
    if (e.method.pallet !== "imOnline" || e.method.method !== "SomeOffline") continue;
    const list = Array.isArray(e.data) ? e.data[0] : undefined;
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const stash: unknown = Array.isArray(item) ? item[0] : item;
      if (typeof stash === "string") out.add(stash);
    }
  }
  return out;
}

/** Median of the active set's era points; a validator of the set without an entry has 0. */
export function medianEraPoints(set: readonly string[], individual: Readonly<Record<string, string>>): number {
  if (set.length === 0) return 0;
  const points = set.map((a) => Number(individual[a] ?? "0")).sort((a, b) => a - b);
  const mid = Math.floor(points.length / 2);
  return points.length % 2 === 1 ? points[mid]! : (points[mid - 1]! + points[mid]!) / 2;
}

/** Unclaimed eras of the stash's own validator payouts, and their sum (planck). */
export function summarisePendingPayouts(
  raw: z.infer<typeof StakingPayouts>,
  stash: string,
): { eras: number[]; planck: string } {
  const eras: number[] = [];
  let planck = 0n;
  for (const era of raw.erasPayouts) {
    if (!("payouts" in era) || !Array.isArray(era.payouts)) continue;
    const own = era.payouts.filter((p) => p.validatorId === stash && !p.claimed);
    if (own.length === 0) continue;
    eras.push(Number(era.era));
    for (const p of own) planck += BigInt(p.nominatorStakingPayout);
  }
  return { eras: eras.sort((a, b) => a - b), planck: String(planck) };
}

/** Share of the active era elapsed: from its start time and the next era's estimated first block. */
export function eraProgress(input: {
  eraStartMs: number | null;
  nowMs: number;
  head: number;
  nextEraBlock: number | null;
  blockIntervalMs: number;
}): number {
  if (input.eraStartMs === null || input.nextEraBlock === null) return 0;
  const elapsed = Math.max(0, input.nowMs - input.eraStartMs);
  const remaining = Math.max(0, input.nextEraBlock - input.head) * input.blockIntervalMs;
  if (elapsed + remaining === 0) return 0;
  return Math.min(1, elapsed / (elapsed + remaining));
}

/** On-chain session keys as author_hasSessionKeys takes them: the SessionKeys fields concatenated in order. */
export function concatSessionKeys(keys: Readonly<Record<string, string>>): string {
  return `0x${Object.values(keys)
    .map((k) => k.slice(2).toLowerCase())
    .join("")}`;
}
