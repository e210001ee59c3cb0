/**
 * Thrown by a processor when the job cannot run now for a reason outside the job (PostgreSQL is
 * away): the shell puts the job back in the delayed set for `delayMs` without using up one of its
 * attempts, so an outage of any length never fails the job. Errors of the job itself still use
 * the catalog's attempts.
 */
export class RetryLaterError extends Error {
  constructor(
    readonly delayMs: number,
    message: string,
  ) {
    super(message);
    this.name = "RetryLaterError";
  }
}

/**
 * The wait before the next try after `deferrals` earlier deferrals of the same job: `baseMs`
 * doubling up to `maxMs`, ±20 % jitter so a backlog does not wake all at once.
 */
export function deferDelayMs(deferrals: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(0, deferrals), 30));
  return Math.max(1, Math.round(ceiling * (0.8 + 0.4 * random())));
}
