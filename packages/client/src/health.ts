import type { FailureKind } from "./types.js";

/**
 * The local health view: one circuit breaker per endpoint URL plus the head each endpoint last reported.
 *
 * closed    -> calls go through; `failureThreshold` consecutive failures open the breaker.
 * open      -> skipped until `openUntil`; the wait doubles on every re-open (base * 2^(opens-1), capped at
 *              maxMs) with "equal jitter" (half fixed, half random) so many clients do not retry in lockstep.
 * half-open -> after the wait the endpoint is tried again at its ranked position; one success closes the
 *              breaker (and resets the backoff), one failure re-opens it with the next, longer wait.
 * A stale head (more than maxLagBlocks behind the best head seen) counts as a failure of kind "stale-head".
 */

export type BreakerState = "closed" | "open" | "half-open";

export interface BreakerOptions {
  /** Consecutive failures that open the breaker (default 1: failing over is cheap, a dead node is not). */
  failureThreshold?: number;
  /** First wait before a failed endpoint is retried (default 1000 ms). */
  baseMs?: number;
  /** Longest wait (default 60 000 ms). */
  maxMs?: number;
}

export interface EndpointHealth {
  url: string;
  state: BreakerState;
  consecutiveFailures: number;
  /** How many times the breaker opened in a row without a success in between. */
  opens: number;
  /** When an open breaker lets a trial call through (epoch ms); 0 when closed. */
  openUntil: number;
  lastFailure: FailureKind | null;
  /** Exponentially weighted moving average of reported latencies (alpha 0.3). */
  latencyMs: number | null;
  head: number | null;
  headAt: number | null;
  /** True when the last reported head lagged the best head by more than maxLagBlocks. */
  stale: boolean;
}

interface MutableHealth extends Omit<EndpointHealth, "state"> {
  open: boolean;
  /** While a half-open trial call is in flight (epoch ms), other calls skip the endpoint. */
  trialUntil: number;
}

export interface HealthViewOptions extends BreakerOptions {
  /** Blocks an endpoint's head may lag the best head seen before it counts as failing (default 5). */
  maxLagBlocks?: number;
  now?: () => number;
  random?: () => number;
}

export class HealthView {
  readonly #entries = new Map<string, MutableHealth>();
  readonly #threshold: number;
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #maxLag: number;
  readonly #now: () => number;
  readonly #random: () => number;
  #bestHead: number | null = null;

  constructor(options: HealthViewOptions = {}) {
    this.#threshold = Math.max(1, options.failureThreshold ?? 1);
    this.#baseMs = options.baseMs ?? 1000;
    this.#maxMs = options.maxMs ?? 60_000;
    this.#maxLag = options.maxLagBlocks ?? 5;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
  }

  get bestHead(): number | null {
    return this.#bestHead;
  }

  get maxLagBlocks(): number {
    return this.#maxLag;
  }

  #entry(url: string): MutableHealth {
    let entry = this.#entries.get(url);
    if (!entry) {
      entry = {
        url,
        open: false,
        trialUntil: 0,
        consecutiveFailures: 0,
        opens: 0,
        openUntil: 0,
        lastFailure: null,
        latencyMs: null,
        head: null,
        headAt: null,
        stale: false,
      };
      this.#entries.set(url, entry);
    }
    return entry;
  }

  /** Backoff for the n-th consecutive opening (n >= 1), with equal jitter. */
  backoffMs(opens: number): number {
    const ceiling = Math.min(this.#maxMs, this.#baseMs * 2 ** Math.max(0, opens - 1));
    return ceiling / 2 + this.#random() * (ceiling / 2);
  }

  state(url: string): BreakerState {
    const entry = this.#entries.get(url);
    if (!entry || !entry.open) return "closed";
    const now = this.#now();
    return now >= entry.openUntil && now >= entry.trialUntil ? "half-open" : "open";
  }

  /**
   * A call to `url` is starting. When the breaker is half-open this call is the trial: the endpoint takes no
   * other call until the trial reports back or `leaseMs` passes.
   */
  claimAttempt(url: string, leaseMs: number): void {
    if (this.state(url) !== "half-open") return;
    this.#entry(url).trialUntil = this.#now() + leaseMs;
  }

  get(url: string): EndpointHealth {
    const entry = this.#entry(url);
    const { open: _open, trialUntil: _trial, ...rest } = entry;
    return { ...rest, state: this.state(url) };
  }

  all(): EndpointHealth[] {
    return [...this.#entries.keys()].map((url) => this.get(url));
  }

  recordFailure(url: string, kind: FailureKind): void {
    const entry = this.#entry(url);
    entry.consecutiveFailures += 1;
    entry.lastFailure = kind;
    if (entry.open && this.#now() < entry.openUntil) return; // still waiting: the retry time stands
    if (entry.open || entry.consecutiveFailures >= this.#threshold) {
      // Opening from closed, or a failed trial while half-open: the next wait is twice as long.
      entry.open = true;
      entry.trialUntil = 0;
      entry.opens += 1;
      entry.openUntil = this.#now() + this.backoffMs(entry.opens);
    }
  }

  recordSuccess(url: string, latencyMs?: number): void {
    const entry = this.#entry(url);
    if (entry.stale) return; // a fresh answer with a stale head is not a recovery; reportHead decides that
    entry.open = false;
    entry.trialUntil = 0;
    entry.consecutiveFailures = 0;
    entry.opens = 0;
    entry.openUntil = 0;
    if (latencyMs !== undefined && Number.isFinite(latencyMs) && latencyMs >= 0)
      entry.latencyMs = entry.latencyMs === null ? latencyMs : entry.latencyMs * 0.7 + latencyMs * 0.3;
  }

  /**
   * Record the head an endpoint reported. Returns true when it lags the best head seen by more than
   * maxLagBlocks; that is recorded as a "stale-head" failure. A head that catches up clears the flag.
   */
  recordHead(url: string, head: number): boolean {
    if (!Number.isFinite(head)) return false;
    const entry = this.#entry(url);
    entry.head = head;
    entry.headAt = this.#now();
    if (this.#bestHead === null || head > this.#bestHead) this.#bestHead = head;
    const stale = this.#bestHead - head > this.#maxLag;
    if (stale) {
      entry.stale = true;
      this.recordFailure(url, "stale-head");
    } else if (entry.stale) {
      entry.stale = false;
      this.recordSuccess(url);
    }
    return stale;
  }

  /** Would this head count as stale right now (without recording it)? */
  isStaleHead(head: number): boolean {
    return this.#bestHead !== null && this.#bestHead - head > this.#maxLag;
  }

  /** Forget endpoints no longer listed, so the map does not grow with every list change. */
  retain(urls: ReadonlySet<string>): void {
    for (const url of this.#entries.keys()) if (!urls.has(url)) this.#entries.delete(url);
  }
}
