/**
 * Per-client-address token bucket for unauthenticated work, in process memory (a flood must not
 * cost Redis or PostgreSQL anything). `allows` only looks (called before a token look-up in the
 * database); `charge` takes one token for a request that ended unauthenticated (missing, malformed,
 * unknown, revoked or wrong token) and says whether one was left. Requests with a valid token are
 * never charged, so many honest agents behind one address are not limited by it. At most
 * `maxAddresses` buckets are kept (least recently used dropped first). Each ingest process keeps
 * its own buckets.
 */
export interface AddressLimiterOptions {
  ratePerSecond: number;
  burst: number;
  maxAddresses: number;
  now?: () => number;
}

export interface AddressLimiter {
  /** Whether a request from `key` may cost a look-up now, and if not when it may. */
  allows(key: string): { allowed: boolean; retryAfterMs: number };
  /** Take one token; false when none was left (the caller answers 429 instead of 401). */
  charge(key: string): { allowed: boolean; retryAfterMs: number };
  readonly size: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export function createAddressLimiter(options: AddressLimiterOptions): AddressLimiter {
  const now = options.now ?? Date.now;
  const perMs = options.ratePerSecond / 1000;
  const buckets = new Map<string, Bucket>();

  const refill = (key: string): Bucket => {
    const at = now();
    const previous = buckets.get(key);
    const bucket = previous
      ? { tokens: Math.min(options.burst, previous.tokens + (at - previous.at) * perMs), at }
      : { tokens: options.burst, at };
    buckets.delete(key);
    buckets.set(key, bucket);
    while (buckets.size > options.maxAddresses) {
      const oldest = buckets.keys().next();
      if (oldest.done) break;
      buckets.delete(oldest.value);
    }
    return bucket;
  };
  const waitMs = (bucket: Bucket) => Math.ceil((1 - bucket.tokens) / perMs);

  return {
    allows(key) {
      const bucket = refill(key);
      return bucket.tokens >= 1 ? { allowed: true, retryAfterMs: 0 } : { allowed: false, retryAfterMs: waitMs(bucket) };
    },
    charge(key) {
      const bucket = refill(key);
      if (bucket.tokens < 1) return { allowed: false, retryAfterMs: waitMs(bucket) };
      bucket.tokens -= 1;
      return { allowed: true, retryAfterMs: 0 };
    },
    get size() {
      return buckets.size;
    },
  };
}
