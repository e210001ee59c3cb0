import type { ChainNetwork } from "../network.js";
import { deriveBytes, deriveInt } from "../random.js";
import { encodeSs58, SS58_PREFIX } from "./ss58.js";

/**
 * Staking state of one simulated Polkadot/Kusama network, shared by every node of it: the active
 * validator set (the block authors of sidecar.ts's /blocks: validator index = BABE authority index),
 * a few waiting validators, era points that accrue block by block, commissions, session keys and
 * payouts, with the knobs the demo and the tests turn: a validator goes offline (earns no points and
 * im-online reports it at the end of the session), drops out of the active set at the next era,
 * leaves unclaimed payouts, or its node loses the on-chain session keys.
 *
 * Timing is compressed against the real chains (Polkadot: 2,400-block sessions, 6 per era): a
 * session is SESSION_BLOCKS blocks and an era SESSIONS_PER_ERA sessions, so an era passes in 12
 * minutes of 6-second blocks.
 */

export const SESSION_BLOCKS = 20;
export const SESSIONS_PER_ERA = 6;
export const ERA_BLOCKS = SESSION_BLOCKS * SESSIONS_PER_ERA;
/** Size of the active set (the BABE authority index of sidecar.ts's digests is taken modulo this). */
export const ACTIVE_SET_SIZE = 297;
const WAITING_COUNT = 16;
/** Era points per block for a validator earning at rate 1 (backing and authoring together). */
const POINTS_PER_BLOCK = 4;
/** Planck paid per era point (the era payout split by points). */
const PLANCK_PER_POINT = 12_500_000n;

export interface ValidatorConfig {
  network: string;
  address: string;
  /** Offline from the start: earns no points and is reported at every session end. */
  offline?: boolean | undefined;
  /** Share of a normal validator's points it earns while online (default 0.85-1.15, derived). */
  pointsRate?: number | undefined;
  /** Unclaimed payouts of the last N finished eras. */
  unclaimedEras?: number | undefined;
}

interface ValidatorState {
  /** Offline intervals [from, to) in blocks; to = null while still offline. */
  offline: Array<{ from: number; to: number | null }>;
  /** Not in the active set from this era on (chilled: status waiting or, when `chilled`, no prefs). */
  droppedFromEra: number | null;
  chilled: boolean;
  pointsRate: number | null;
  unclaimedEras: number;
  /** false: the validator's node no longer holds the on-chain session keys (rotated, never set). */
  keysOnNode: boolean;
}

const books = new WeakMap<ChainNetwork, ValidatorBook>();

/** The staking book of a network (created on first use). */
export function validatorBookOf(network: ChainNetwork): ValidatorBook {
  let book = books.get(network);
  if (!book) {
    book = new ValidatorBook(network);
    books.set(network, book);
  }
  return book;
}

export class ValidatorBook {
  readonly network: ChainNetwork;
  readonly prefix: number;
  readonly #addresses: string[];
  readonly #indexOf = new Map<string, number>();
  readonly #states = new Map<string, ValidatorState>();
  #keysIndex: Map<string, string> | null = null;

  constructor(network: ChainNetwork) {
    this.network = network;
    this.prefix = SS58_PREFIX[network.slug] ?? 42;
    this.#addresses = Array.from({ length: ACTIVE_SET_SIZE + WAITING_COUNT }, (_, i) =>
      encodeSs58(deriveBytes(32, network.seed, "validator", i), this.prefix),
    );
    this.#addresses.forEach((a, i) => this.#indexOf.set(a, i));
  }

  /** The stash of validator `index` (0-296: elected, 297-312: waiting). */
  address(index: number): string {
    const a = this.#addresses[index];
    if (a === undefined) throw new Error(`no validator ${index} on ${this.network.slug}`);
    return a;
  }

  has(address: string): boolean {
    return this.#indexOf.has(address);
  }

  #state(address: string): ValidatorState {
    let s = this.#states.get(address);
    if (!s) {
      s = { offline: [], droppedFromEra: null, chilled: false, pointsRate: null, unclaimedEras: 0, keysOnNode: true };
      this.#states.set(address, s);
    }
    return s;
  }

  configure(config: ValidatorConfig): void {
    if (!this.has(config.address)) throw new Error(`${config.address} is not a validator of ${this.network.slug}`);
    const s = this.#state(config.address);
    if (config.offline) s.offline.push({ from: 0, to: null });
    if (config.pointsRate !== undefined) s.pointsRate = config.pointsRate;
    if (config.unclaimedEras !== undefined) s.unclaimedEras = config.unclaimedEras;
  }

  eraOf(height: number): number {
    return Math.floor(height / ERA_BLOCKS);
  }

  eraStart(era: number): number {
    return era * ERA_BLOCKS;
  }

  nextSessionStart(height: number): number {
    return (Math.floor(height / SESSION_BLOCKS) + 1) * SESSION_BLOCKS;
  }

  /** The validator goes offline at `head` (until `setOnline`); reported at the next session start. */
  setOffline(address: string, head: number): { reportAtBlock: number } {
    const s = this.#state(address);
    if (!s.offline.some((o) => o.to === null)) s.offline.push({ from: head, to: null });
    return { reportAtBlock: this.nextSessionStart(head) };
  }

  setOnline(address: string, head: number): void {
    for (const o of this.#state(address).offline) if (o.to === null) o.to = Math.max(o.from, head);
  }

  /** Leaves the active set at the next era (chill: no validator preferences either). */
  drop(address: string, head: number, chill: boolean): { fromBlock: number } {
    const s = this.#state(address);
    const era = this.eraOf(head) + 1;
    s.droppedFromEra = s.droppedFromEra === null ? era : Math.min(s.droppedFromEra, era);
    s.chilled = chill;
    return { fromBlock: this.eraStart(era) };
  }

  /** Back in the active set from the next era. */
  rejoin(address: string): void {
    const s = this.#state(address);
    s.droppedFromEra = null;
    s.chilled = false;
  }

  setKeysOnNode(address: string, onNode: boolean): void {
    this.#state(address).keysOnNode = onNode;
  }

  setUnclaimedEras(address: string, eras: number): void {
    this.#state(address).unclaimedEras = Math.max(0, Math.floor(eras));
  }

  /** The session's validator set at `height` (active validators in index order). */
  activeSet(height: number): string[] {
    const era = this.eraOf(height);
    return this.#addresses.slice(0, ACTIVE_SET_SIZE).filter((a) => {
      const dropped = this.#states.get(a)?.droppedFromEra;
      return dropped === null || dropped === undefined || dropped > era;
    });
  }

  /** 'active' (in the set), 'waiting' (validator prefs, not elected) or null (not a validator). */
  status(address: string, height: number): "active" | "waiting" | null {
    const i = this.#indexOf.get(address);
    if (i === undefined) return null;
    const s = this.#states.get(address);
    const dropped =
      s?.droppedFromEra !== null && s?.droppedFromEra !== undefined && s.droppedFromEra <= this.eraOf(height);
    if (i < ACTIVE_SET_SIZE && !dropped) return "active";
    return s?.chilled && dropped ? null : "waiting";
  }

  /** Every validator with preferences: the active set, the waiting ones and the dropped, unchilled ones. */
  validators(height: number): Array<{ address: string; status: "active" | "waiting" }> {
    const out: Array<{ address: string; status: "active" | "waiting" }> = [];
    for (const address of this.#addresses) {
      const status = this.status(address, height);
      if (status) out.push({ address, status });
    }
    return out;
  }

  isOffline(address: string, height: number): boolean {
    return (this.#states.get(address)?.offline ?? []).some((o) => o.from <= height && (o.to === null || height < o.to));
  }

  #rate(address: string): number {
    const s = this.#states.get(address);
    if (s?.pointsRate !== null && s?.pointsRate !== undefined) return s.pointsRate;
    return 0.85 + deriveInt(300, this.network.seed, "points-rate", address) / 1000;
  }

  /** Blocks of [from, to) the validator spent offline. */
  #offlineBlocks(address: string, from: number, to: number): number {
    let n = 0;
    for (const o of this.#states.get(address)?.offline ?? []) {
      const end = o.to === null ? to : Math.min(o.to, to);
      n += Math.max(0, end - Math.max(o.from, from));
    }
    return n;
  }

  /** Era points of `era` as of block `height` (the whole era once it is over), per validator of its set. */
  eraPoints(era: number, height: number): { total: number; individual: Map<string, number> } {
    const start = this.eraStart(era);
    const end = Math.min(height + 1, this.eraStart(era + 1));
    const individual = new Map<string, number>();
    let total = 0;
    if (end <= start) return { total, individual };
    for (const address of this.activeSet(start)) {
      const online = end - start - this.#offlineBlocks(address, start, end);
      const points = Math.floor(online * POINTS_PER_BLOCK * this.#rate(address));
      if (points > 0) individual.set(address, points);
      total += points;
    }
    return { total, individual };
  }

  /** Commission in parts per billion (1 %-10 %, derived). */
  commissionPpb(address: string): number {
    return (1 + deriveInt(10, this.network.seed, "commission", address)) * 10_000_000;
  }

  /** session.nextKeys of the stash (Polkadot's SessionKeys order: grandpa, babe, paraValidator, paraAssignment, authorityDiscovery, beefy). */
  nextKeys(address: string): Record<string, string> {
    const k = (name: string, bytes = 32): string =>
      `0x${deriveBytes(bytes, this.network.seed, "session-key", address, name).toString("hex")}`;
    return {
      grandpa: k("grandpa"),
      babe: k("babe"),
      paraValidator: k("paraValidator"),
      paraAssignment: k("paraAssignment"),
      authorityDiscovery: k("authorityDiscovery"),
      beefy: `0x02${k("beefy").slice(2)}`,
    };
  }

  /** author_hasSessionKeys: the node holds every validator's keys but those it lost. */
  hasSessionKeys(concatenatedHex: string): boolean {
    if (!this.#keysIndex) {
      this.#keysIndex = new Map();
      for (const a of this.#addresses) {
        const hex = `0x${Object.values(this.nextKeys(a))
          .map((v) => v.slice(2))
          .join("")}`;
        this.#keysIndex.set(hex, a);
      }
    }
    const address = this.#keysIndex.get(concatenatedHex.toLowerCase());
    return address !== undefined && (this.#states.get(address)?.keysOnNode ?? true);
  }

  /** Stashes im-online reports in the session-start block `height` (offline at the session's last block). */
  offlineAt(height: number): string[] {
    if (height % SESSION_BLOCKS !== 0 || height === 0) return [];
    const set = this.activeSet(height - 1);
    return [...this.#states.keys()].filter((a) => set.includes(a) && this.isOffline(a, height - 1));
  }

  /** Payout of `era` for the stash: its points' share; claimed unless within its unclaimed eras. */
  payout(address: string, era: number, activeEra: number): { points: number; planck: bigint; claimed: boolean } | null {
    const { individual } = this.eraPoints(era, this.eraStart(era + 1));
    const points = individual.get(address);
    if (points === undefined) return null;
    const unclaimed = this.#states.get(address)?.unclaimedEras ?? 0;
    return { points, planck: BigInt(points) * PLANCK_PER_POINT, claimed: era < activeEra - unclaimed };
  }
}
