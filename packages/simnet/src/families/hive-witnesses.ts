import type { ChainNetwork } from "../network.js";
import { deriveInt } from "../random.js";
import {
  createAssetFormat,
  derivePublicKey,
  formatHiveTime,
  HIVE_FLAVOR,
  STEEM_FLAVOR,
  type HiveFlavor,
} from "./hive-assets.js";

/**
 * Witness state of one simulated Hive/Steem network, shared by every node of that network (like the
 * chain's own witness objects), with the knobs the demo and the tests turn: a miss, a feed that ages,
 * a changed or disabled signing key, an old running version.
 *
 * Field shapes follow the public API reference:
 * https://developers.hive.io/apidefinitions/#condenser_api.get_witness_by_account,
 * https://developers.hive.io/apidefinitions/#database_api.find_witnesses and
 * https://developers.hive.io/apidefinitions/#condenser_api.get_witness_schedule (Steem: the same objects
 * with sbd_exchange_rate / last_sbd_exchange_update, https://developers.steem.io/apidefinitions/).
 */

/** The public key hived treats as "no key": a witness with it is disabled (update_witness with it). */
export const NULL_SIGNING_KEY = "STM1111111111111111111111111111111114T1Anm";

const HOUR_MS = 3_600_000;
const MAX_PERIODIC_MISSES = 10_000;

export interface WitnessConfig {
  network: string;
  account: string;
  /** The witness misses one of its slots this often (from the start of simnet). */
  missEveryMinutes?: number | undefined;
  /** Its price feed was last published this long before simnet started and is not refreshed. */
  feedStaleHours?: number | undefined;
  runningVersion?: string | undefined;
  hardforkVote?: string | undefined;
  /** true: the signing key is the null key (witness disabled). */
  disabled?: boolean | undefined;
}

interface WitnessState {
  misses: number[];
  signingKey: string;
  runningVersion: string;
  hardforkVote: string;
  /** Fixed publication time of the feed; null = published every hour. */
  feedFrozenAtMs: number | null;
  missEveryMs: number | null;
}

const RUNNING: Record<HiveFlavor["chain"], { running: string; hardfork: string }> = {
  hive: { running: "1.27.11", hardfork: "1.27.0" },
  steem: { running: "0.23.1", hardfork: "0.23.0" },
};

const books = new WeakMap<ChainNetwork, WitnessBook>();

/** The witness book of a network (created on first use). */
export function witnessBookOf(network: ChainNetwork): WitnessBook {
  let book = books.get(network);
  if (!book) {
    book = new WitnessBook(network);
    books.set(network, book);
  }
  return book;
}

export function flavorOf(network: ChainNetwork): HiveFlavor {
  return network.info.chain === "steem" ? STEEM_FLAVOR : HIVE_FLAVOR;
}

export class WitnessBook {
  readonly network: ChainNetwork;
  readonly flavor: HiveFlavor;
  readonly startMs: number;
  readonly #states = new Map<string, WitnessState>();

  constructor(network: ChainNetwork) {
    this.network = network;
    this.flavor = flavorOf(network);
    this.startMs = network.clock.now();
  }

  has(account: string): boolean {
    return this.flavor.witnesses.includes(account);
  }

  #state(account: string): WitnessState {
    let s = this.#states.get(account);
    if (!s) {
      const v = RUNNING[this.flavor.chain];
      s = {
        misses: [],
        signingKey: derivePublicKey(this.network.seed, account, "signing"),
        runningVersion: v.running,
        hardforkVote: v.hardfork,
        feedFrozenAtMs: null,
        missEveryMs: null,
      };
      this.#states.set(account, s);
    }
    return s;
  }

  configure(config: WitnessConfig): void {
    const s = this.#state(config.account);
    if (config.missEveryMinutes !== undefined) s.missEveryMs = config.missEveryMinutes * 60_000;
    if (config.feedStaleHours !== undefined) s.feedFrozenAtMs = this.startMs - config.feedStaleHours * HOUR_MS;
    if (config.runningVersion !== undefined) s.runningVersion = config.runningVersion;
    if (config.hardforkVote !== undefined) s.hardforkVote = config.hardforkVote;
    if (config.disabled) s.signingKey = NULL_SIGNING_KEY;
  }

  /** Height of the scheduled producer rotation: block n is signed by witnesses[n % count]. */
  #slotIndex(account: string): number {
    return this.flavor.witnesses.indexOf(account);
  }

  /** First height >= from that is this witness's slot. */
  #nextSlot(account: string, from: number): number {
    const count = this.flavor.witnesses.length;
    const idx = this.#slotIndex(account);
    return from + ((((idx - from) % count) + count) % count);
  }

  /** Heights of every miss up to `head`: the ones asked for plus the periodic ones. */
  missesUpTo(account: string, head: number): number[] {
    const s = this.#state(account);
    const out = s.misses.filter((h) => h <= head);
    if (s.missEveryMs !== null) {
      const now = this.network.timeOfHeight(head);
      const n = Math.min(MAX_PERIODIC_MISSES, Math.floor((now - this.startMs) / s.missEveryMs));
      for (let k = 1; k <= n; k++) {
        const h = this.#nextSlot(account, this.network.heightAt(this.startMs + k * s.missEveryMs));
        if (h <= head) out.push(h);
      }
    }
    return [...new Set(out)].sort((a, b) => a - b);
  }

  /** The witness misses its next slot after the current head; returns that block number. */
  missNextSlot(account: string): number {
    const height = this.#nextSlot(account, this.network.head() + 1);
    this.#state(account).misses.push(height);
    return height;
  }

  /** The witness whose slot at `height` was missed, or null when the scheduled witness signed it. */
  missedAt(height: number): string | null {
    const list = this.flavor.witnesses;
    const scheduled = list[height % list.length] ?? "";
    const s = this.#states.get(scheduled);
    return s && this.missesUpTo(scheduled, height).includes(height) ? scheduled : null;
  }

  /** Who signs block `height`: the scheduled witness, or the next one when the slot was missed. */
  producerOf(height: number): string {
    const list = this.flavor.witnesses;
    if (this.missedAt(height) !== null) return list[(height + 1) % list.length] ?? "";
    return list[height % list.length] ?? "";
  }

  /** Freeze the feed at `ageMs` ago (it then ages), or null to publish hourly again. */
  setFeedAge(account: string, ageMs: number | null): void {
    this.#state(account).feedFrozenAtMs = ageMs === null ? null : this.network.clock.now() - ageMs;
  }

  /** A new signing key (update_witness), or null for the null key (witness disabled). */
  setSigningKey(account: string, key: string | null): void {
    this.#state(account).signingKey = key ?? NULL_SIGNING_KEY;
  }

  setRunningVersion(account: string, version: string, hardforkVote?: string): void {
    const s = this.#state(account);
    s.runningVersion = version;
    if (hardforkVote) s.hardforkVote = hardforkVote;
  }

  #feedUpdatedMs(account: string, nowMs: number): number {
    const frozen = this.#state(account).feedFrozenAtMs;
    if (frozen !== null) return frozen;
    const phase = deriveInt(HOUR_MS, this.network.seed, account, "feed-phase");
    return Math.floor((nowMs - phase) / HOUR_MS) * HOUR_MS + phase;
  }

  /** The witness object at `head`, as condenser_api ("legacy" assets) or database_api ("nai") renders it. */
  witness(account: string, head: number, style: "legacy" | "nai"): Record<string, unknown> | null {
    if (!this.has(account)) return null;
    const s = this.#state(account);
    const a = createAssetFormat(this.flavor, style);
    const d = this.flavor.dollarField;
    const idx = this.#slotIndex(account);
    const nowMs = this.network.timeOfHeight(head);
    const misses = this.missesUpTo(account, head);
    let confirmed = this.#nextSlot(account, head - this.flavor.witnesses.length + 1);
    while (misses.includes(confirmed)) confirmed -= this.flavor.witnesses.length;
    const feedPrice = 200n + BigInt(deriveInt(100, this.network.seed, account, "feed"));
    const votes = (10n ** 17n / BigInt(idx + 1) + BigInt(deriveInt(1_000_000, account, "votes"))).toString();
    const baseMissed = deriveInt(5_000, this.network.seed, account, "missed");
    return {
      id: idx + 1,
      owner: account,
      created: "2016-06-01T00:00:00",
      url: `https://${this.flavor.chain}.blog/@${account}/witness`,
      votes,
      virtual_last_update: String(head * 10),
      virtual_position: "0",
      virtual_scheduled_time: String(head * 1_000_000),
      total_missed: baseMissed + misses.length,
      last_aslot: confirmed + 1_274_000,
      last_confirmed_block_num: confirmed,
      pow_worker: 0,
      signing_key: s.signingKey,
      props: {
        account_creation_fee: a.core(3_000n),
        maximum_block_size: 65536,
        [`${d}_interest_rate`]: this.flavor.chain === "hive" ? 1500 : 0,
        account_subsidy_budget: 797,
        account_subsidy_decay: 347_321,
      },
      [`${d}_exchange_rate`]: { base: a.dollar(feedPrice), quote: a.core(1_000n) },
      [`last_${d}_exchange_update`]: formatHiveTime(this.#feedUpdatedMs(account, nowMs)),
      last_work: "0".repeat(64),
      running_version: s.runningVersion,
      hardfork_version_vote: s.hardforkVote,
      hardfork_time_vote: "2023-10-11T12:00:00",
      available_witness_account_subsidies: 100_000 + deriveInt(50_000, account, "subsidies"),
    };
  }

  /** The running version at least hardfork_required_witnesses (17 of 21) scheduled witnesses reach. */
  #majorityVersion(): string {
    const key = (v: string) =>
      v
        .split(".")
        .map((p) => p.padStart(6, "0"))
        .join(".");
    const versions = this.flavor.witnesses.map((w) => this.#state(w).runningVersion);
    versions.sort((x, y) => (key(x) < key(y) ? 1 : key(x) > key(y) ? -1 : 0));
    return versions[Math.min(versions.length, 17) - 1] ?? RUNNING[this.flavor.chain].running;
  }

  /** condenser_api.get_witnesses_by_vote: witness objects by votes, descending, from the named one ("" = the top). */
  byVote(from: string, limit: number, head: number): Record<string, unknown>[] {
    const all = this.flavor.witnesses
      .map((w) => this.witness(w, head, "legacy"))
      .filter((w): w is Record<string, unknown> => w !== null)
      .sort((x, y) => (BigInt(String(y.votes)) > BigInt(String(x.votes)) ? 1 : -1));
    const start =
      from === ""
        ? 0
        : Math.max(
            0,
            all.findIndex((w) => w.owner === from),
          );
    return all.slice(start, start + limit);
  }

  /** condenser_api.get_witness_schedule / database_api.get_witness_schedule. */
  schedule(head: number, style: "legacy" | "nai"): Record<string, unknown> {
    const a = createAssetFormat(this.flavor, style);
    const d = this.flavor.dollarField;
    const count = this.flavor.witnesses.length;
    const round = head - (head % count);
    return {
      id: 0,
      current_virtual_time: String(head * 1_000_000),
      next_shuffle_block_num: round + count,
      current_shuffled_witnesses: [...this.flavor.witnesses],
      num_scheduled_witnesses: count,
      elected_weight: 1,
      timeshare_weight: 5,
      miner_weight: 1,
      witness_pay_normalization_factor: 25,
      median_props: {
        account_creation_fee: a.core(3_000n),
        maximum_block_size: 65536,
        [`${d}_interest_rate`]: this.flavor.chain === "hive" ? 1500 : 0,
        account_subsidy_budget: 797,
        account_subsidy_decay: 347_321,
      },
      majority_version: this.#majorityVersion(),
      max_voted_witnesses: 20,
      max_miner_witnesses: 0,
      max_runner_witnesses: 1,
      hardfork_required_witnesses: 17,
    };
  }
}
