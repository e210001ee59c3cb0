import type { NodeConfig, ErrorKind } from "./config.js";
import type { ChainNetwork } from "./network.js";
import { createRandom, type Random } from "./random.js";
import type { LatencySpec } from "./latency.js";
import type { Clock } from "./clock.js";

/** What one request sees: the node's head, the network's head and the time. */
export interface HeadView {
  head: number;
  networkHead: number;
  nowMs: number;
}

/** Token bucket on the injected clock, like a public provider's per-key limit. */
export class TokenBucket {
  #tokens: number;
  #lastMs: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly clock: Clock,
  ) {
    this.#tokens = burst;
    this.#lastMs = clock.now();
  }

  /** Take `cost` tokens; returns 0 when granted, else the seconds to wait before retrying. */
  take(cost: number): number {
    const now = this.clock.now();
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#lastMs) / 1000) * this.ratePerSecond);
    this.#lastMs = now;
    if (this.#tokens >= cost) {
      this.#tokens -= cost;
      return 0;
    }
    return Math.max(1, Math.ceil((cost - this.#tokens) / this.ratePerSecond));
  }
}

/**
 * Runtime state of one simulated node: its view of the shared network head (lag, stall, flapping)
 * and the knobs tests and the demo can turn while it runs.
 */
export class SimNode {
  readonly config: NodeConfig;
  readonly network: ChainNetwork;
  readonly random: Random;
  lagBlocks: number;
  stalledAt: number | null = null;
  /**
   * The highest head this node may report: an Ethereum execution node is moved only by the consensus
   * client that drives it (beacon-server.ts sets this when its beacon node drives this node).
   */
  headCap: (() => number) | null = null;
  errorRate: number;
  errorKind: ErrorKind;
  syncing: boolean;
  peers: number;
  latency: LatencySpec;
  missingMethods: Set<string>;
  rateLimiter: TokenBucket | null;
  /** Requests that fail for sure before errorRate applies again (tests: "the next N calls get a 503"). */
  #forcedFailures = 0;
  #forcedKind: ErrorKind = "http-503";

  constructor(config: NodeConfig, network: ChainNetwork, seed: string) {
    this.config = config;
    this.network = network;
    this.random = createRandom(`${seed}|${config.name}`);
    this.lagBlocks = config.lagBlocks;
    this.errorRate = config.errorRate;
    this.errorKind = config.errorKind;
    this.syncing = config.syncing;
    this.peers = config.peers;
    this.latency = config.latency;
    this.missingMethods = new Set(config.missingMethods);
    this.rateLimiter = config.rateLimit
      ? new TokenBucket(config.rateLimit.requestsPerSecond, config.rateLimit.burst, network.clock)
      : null;
    const stall = config.stall;
    if (stall?.atHeight !== undefined) this.stalledAt = stall.atHeight;
    else if (stall?.afterBlocks !== undefined) this.stalledAt = this.#ownHead() + stall.afterBlocks;
    else if (stall?.atTime !== undefined) this.stalledAt = network.heightAt(Date.parse(stall.atTime)) - this.lagBlocks;
  }

  get name(): string {
    return this.config.name;
  }

  #ownHead(): number {
    return Math.max(1, this.network.head() - this.lagBlocks);
  }

  /** The head this node reports right now, before any load-balancer flapping. */
  currentHead(): number {
    let head = this.#ownHead();
    if (this.headCap) head = Math.max(1, Math.min(head, this.headCap()));
    return this.stalledAt === null ? head : Math.min(head, this.stalledAt);
  }

  /** One request's view; with headFlap configured it may see an older head (another backend). */
  view(): HeadView {
    let head = this.currentHead();
    const flap = this.config.headFlap;
    if (flap && this.random.next() < flap.probability) head = Math.max(1, head - flap.depthBlocks);
    return { head, networkHead: this.network.head(), nowMs: this.network.clock.now() };
  }

  isMissing(method: string): boolean {
    return this.missingMethods.has(method);
  }

  setStalled(stalled: boolean): void {
    this.stalledAt = stalled ? this.currentHead() : null;
  }

  setLag(blocks: number): void {
    if (!Number.isInteger(blocks) || blocks < 0)
      throw new RangeError(`lag must be a non-negative integer, got ${blocks}`);
    this.lagBlocks = blocks;
  }

  setErrorRate(rate: number, kind?: ErrorKind): void {
    if (!(rate >= 0 && rate <= 1)) throw new RangeError(`error rate must be within [0, 1], got ${rate}`);
    this.errorRate = rate;
    if (kind) this.errorKind = kind;
  }

  /** The next `count` requests (HTTP or WebSocket calls) fail with `kind` (default http-503), whatever errorRate says. */
  failNext(count: number, kind: ErrorKind = "http-503"): void {
    if (!Number.isInteger(count) || count < 0)
      throw new RangeError(`count must be a non-negative integer, got ${count}`);
    this.#forcedFailures = count;
    this.#forcedKind = kind;
  }

  /** The kind of the failure this request must return, when one is forced; consumes it. */
  takeForcedFailure(): ErrorKind | null {
    if (this.#forcedFailures === 0) return null;
    this.#forcedFailures--;
    return this.#forcedKind;
  }

  setSyncing(syncing: boolean): void {
    this.syncing = syncing;
  }

  setPeers(peers: number): void {
    this.peers = peers;
  }

  setLatency(latency: LatencySpec): void {
    this.latency = latency;
  }

  setMissingMethods(methods: readonly string[]): void {
    this.missingMethods = new Set(methods);
  }
}
