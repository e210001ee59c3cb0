import { z } from "zod";

/**
 * Hive/Steem witness objects as hived/steemd return them, parsed to what RPC Pulse keeps. Shapes:
 * https://developers.hive.io/apidefinitions/#condenser_api.get_witness_by_account (Hive: hbd_exchange_rate,
 * last_hbd_exchange_update) and https://developers.steem.io/apidefinitions/#condenser_api.get_witness_by_account
 * (Steem: sbd_exchange_rate, last_sbd_exchange_update); the schedule's majority_version and
 * current_shuffled_witnesses from condenser_api.get_witness_schedule; head_block_number from
 * condenser_api.get_dynamic_global_properties.
 */

/** The key hived treats as none: a witness whose signing key is this is disabled. */
export const NULL_WITNESS_KEYS = new Set([
  "STM1111111111111111111111111111111114T1Anm",
  "TST1111111111111111111111111111111114T1Anm",
]);

const hiveTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
const legacyAsset = z.string().regex(/^\d+(\.\d+)? [A-Z]{3,5}$/);
const price = z.object({ base: legacyAsset, quote: legacyAsset }).loose();
const version = z.string().regex(/^\d+\.\d+\.\d+$/);
const count = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)]);

export const WitnessObject = z
  .object({
    owner: z.string().min(1),
    votes: z.union([z.string().regex(/^\d{1,40}$/), z.number().int().nonnegative().transform(String)]),
    total_missed: count,
    last_confirmed_block_num: count,
    signing_key: z.string().min(1).max(128),
    running_version: version,
    hardfork_version_vote: version,
    hbd_exchange_rate: price.optional(),
    last_hbd_exchange_update: hiveTime.optional(),
    sbd_exchange_rate: price.optional(),
    last_sbd_exchange_update: hiveTime.optional(),
  })
  .loose();

export const WitnessSchedule = z
  .object({ majority_version: version.optional(), current_shuffled_witnesses: z.array(z.string()).default([]) })
  .loose();

export interface WitnessFacts {
  account: string;
  totalMissed: number;
  lastConfirmedBlock: number;
  signingKey: string;
  disabled: boolean;
  runningVersion: string;
  hardforkVote: string;
  feedBase: string | null;
  feedQuote: string | null;
  feedUpdatedAt: Date | null;
  votes: string;
}

/** A witness object (either chain's field names) → facts; throws a ZodError on a wrong shape. */
export function parseWitness(raw: unknown): WitnessFacts {
  const w = WitnessObject.parse(raw);
  const rate = w.hbd_exchange_rate ?? w.sbd_exchange_rate ?? null;
  const updated = w.last_hbd_exchange_update ?? w.last_sbd_exchange_update ?? null;
  // hived reports 1970-01-01T00:00:00 for a witness that never published a feed.
  const updatedAt = updated === null || updated.startsWith("1970-") ? null : new Date(`${updated}Z`);
  return {
    account: w.owner,
    totalMissed: w.total_missed,
    lastConfirmedBlock: w.last_confirmed_block_num,
    signingKey: w.signing_key,
    disabled: NULL_WITNESS_KEYS.has(w.signing_key),
    runningVersion: w.running_version,
    hardforkVote: w.hardfork_version_vote,
    feedBase: rate?.base ?? null,
    feedQuote: rate?.quote ?? null,
    feedUpdatedAt: updatedAt,
    votes: w.votes,
  };
}

/** -1, 0, 1 comparing "major.minor.patch" strings numerically. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}
