import { AppError } from "@rpcpulse/config";

/** The two Redis commands a fixed-window counter needs (an ioredis client satisfies it). */
export interface RateLimitStore {
  incr(key: string): Promise<number>;
  pexpire(key: string, milliseconds: number): Promise<number>;
}

/**
 * Fixed-window limit: at most `max` hits per `windowMs` for `key`; RATE_LIMITED (with the seconds
 * to wait) beyond that. Keys carry the caller's prefix so tests and deployments never share them.
 */
export async function hitRateLimit(
  store: RateLimitStore,
  input: { key: string; max: number; windowMs: number; now?: number },
): Promise<void> {
  const now = input.now ?? Date.now();
  const window = Math.floor(now / input.windowMs);
  const key = `${input.key}:${window}`;
  const count = await store.incr(key);
  if (count === 1) await store.pexpire(key, input.windowMs + 1_000);
  if (count > input.max) {
    const retry = Math.ceil(((window + 1) * input.windowMs - now) / 1000);
    throw new AppError("RATE_LIMITED", "Too many requests; try again later.", {
      retryAfterSeconds: Math.max(1, retry),
    });
  }
}
