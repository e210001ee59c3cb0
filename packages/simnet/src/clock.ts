/**
 * Time source of a simulated network. Everything that depends on "now" (head height, block
 * timestamps, rate-limit refill, stall-at-time) reads it from a Clock so tests can drive time.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; for deterministic tests. */
export class ManualClock implements Clock {
  #ms: number;

  constructor(startMs: number) {
    this.#ms = startMs;
  }

  now(): number {
    return this.#ms;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance a clock by ${ms} ms`);
    this.#ms += ms;
  }

  set(ms: number): void {
    this.#ms = ms;
  }
}
