import { AppError } from "@rpcpulse/config";
import { findAgentTokenCredentials, touchAgentTokensLastUsed, type AgentTokenCredential } from "@rpcpulse/db/fleet";
import { type SqlClient } from "@rpcpulse/db/sql";
import { parseAgentToken, secretMatches } from "./token-format.js";

/** Who a verified agent token speaks for. */
export interface AgentIdentity {
  tokenId: string;
  /** The token's public prefix (what change announcements name). */
  tokenPrefix: string;
  nodeId: string;
  organizationId: string;
  networkId: string;
  /** The catalogue slug of the node's network. */
  networkSlug: string;
}

export interface AgentTokenVerifierOptions {
  /** How long a looked-up token is trusted without asking PostgreSQL again (≤ 30 s). */
  ttlMs?: number;
  /**
   * While PostgreSQL cannot be reached, a token looked up less than this long ago is still
   * accepted (agents keep pushing through a short database outage), unless it is known to have
   * changed since (see readChangeMark).
   */
  staleIfErrorMs?: number;
  maxEntries?: number;
  /**
   * Unknown token prefixes are remembered apart from valid tokens, in their own bounded map (oldest
   * dropped first) for this long: a flood of random tokens neither evicts valid entries nor reaches
   * the database twice for one prefix.
   */
  negativeTtlMs?: number;
  maxNegativeEntries?: number;
  /** lastUsedAt is written at most once per this interval per token. */
  lastUsedIntervalMs?: number;
  now?: () => number;
  onBackgroundError?: (error: unknown) => void;
}

export interface AgentTokenVerifierDeps {
  sql: SqlClient;
  /**
   * The token's current change mark (Redis, @rpcpulse/queue readAgentTokenChangeMark), read on
   * every verification: a mark other than the one seen at the last database read means the token
   * was revoked, rotated or its node deleted since, so the cached copy is not used (not even while
   * PostgreSQL is down). Without it, changes reach this cache through invalidate() and the TTL.
   */
  readChangeMark?: (tokenPrefix: string) => Promise<string | null>;
}

export interface VerifyHooks {
  /**
   * Runs right before a database look-up (never for a verification served from the cache); may
   * throw to refuse the request first (the ingest API's per-address limit of unauthenticated work).
   */
  beforeLookup?: () => void;
}

export interface AgentTokenVerifierStats {
  /** Database look-ups started. */
  lookups: number;
  /** Verifications answered 401 from the negative cache. */
  negativeHits: number;
  /** Well-formed tokens verified (answered from a cache or a lookup): the cache hit ratio is 1 - lookups / verifications. */
  verifications: number;
}

export interface AgentTokenVerifier {
  /** Throws AppError UNAUTHENTICATED (unknown, malformed, expired, revoked) or UNAVAILABLE (database down, not cached). */
  verify(token: string, hooks?: VerifyHooks): Promise<AgentIdentity>;
  invalidate(tokenPrefix: string): void;
  clear(): void;
  readonly size: number;
  readonly negativeSize: number;
  readonly stats: Readonly<AgentTokenVerifierStats>;
}

interface Entry {
  credential: AgentTokenCredential;
  fetchedAt: number;
  touchedAt: number;
  /** The change mark read before the database read that produced this entry. */
  mark: string | null;
}

interface NegativeEntry {
  fetchedAt: number;
  mark: string | null;
}

interface QueuedRead {
  prefix: string;
  resolve: (credential: AgentTokenCredential | null) => void;
  reject: (error: unknown) => void;
}

interface QueuedTouch {
  prefix: string;
  tokenId: string;
  at: Date;
}

const MAX_TTL_MS = 30_000;
/**
 * Database reads of cache misses at a time; misses arriving meanwhile wait and go together in the
 * next read (up to MAX_PREFIXES_PER_READ prefixes). When a fleet's agents all arrive within one
 * push interval (an ingest restart), that is a few reads per second instead of one per agent.
 */
const MAX_READS_IN_FLIGHT = 2;
const MAX_PREFIXES_PER_READ = 500;
/** lastUsedAt writes likewise (with the reads, at most the ingest pool's 4 connections). */
const MAX_TOUCH_WRITES_IN_FLIGHT = 2;
const MAX_TOUCHES_PER_WRITE = 1_000;
const unauthenticated = () => new AppError("UNAUTHENTICATED", "Unknown, expired or revoked agent token.");
const unavailable = (cause: unknown) =>
  new AppError("UNAVAILABLE", "Token store unavailable; retry later.", { cause, retryAfterSeconds: 5 });

/** Insert as the newest entry of a bounded map; the oldest goes when it is full. */
function rememberBounded<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

export function createAgentTokenVerifier(
  deps: AgentTokenVerifierDeps,
  options: AgentTokenVerifierOptions = {},
): AgentTokenVerifier {
  const ttlMs = Math.min(options.ttlMs ?? MAX_TTL_MS, MAX_TTL_MS);
  const staleIfErrorMs = options.staleIfErrorMs ?? 5 * 60_000;
  const maxEntries = options.maxEntries ?? 50_000;
  const negativeTtlMs = Math.min(options.negativeTtlMs ?? 60_000, 3_600_000);
  const maxNegativeEntries = options.maxNegativeEntries ?? 10_000;
  const lastUsedIntervalMs = options.lastUsedIntervalMs ?? 60_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Entry>();
  const negative = new Map<string, NegativeEntry>();
  const inflight = new Map<string, Promise<AgentTokenCredential | null>>();
  const stats: AgentTokenVerifierStats = { lookups: 0, negativeHits: 0, verifications: 0 };
  let generation = 0;

  const queuedReads: QueuedRead[] = [];
  let readsInFlight = 0;
  const startReads = () => {
    while (readsInFlight < MAX_READS_IN_FLIGHT && queuedReads.length > 0) {
      const batch = queuedReads.splice(0, MAX_PREFIXES_PER_READ);
      readsInFlight++;
      findAgentTokenCredentials(
        deps.sql,
        batch.map((r) => r.prefix),
      )
        .then(
          (found) => {
            for (const r of batch) r.resolve(found.get(r.prefix) ?? null);
          },
          (error: unknown) => {
            for (const r of batch) r.reject(error);
          },
        )
        .finally(() => {
          readsInFlight--;
          startReads();
        });
    }
  };

  /** One database read per prefix at a time; its result lands in one of the two caches. */
  const lookup = (prefix: string, mark: string | null): Promise<AgentTokenCredential | null> => {
    let pending = inflight.get(prefix);
    if (!pending) {
      const startedIn = generation;
      stats.lookups++;
      pending = new Promise<AgentTokenCredential | null>((resolve, reject) => {
        queuedReads.push({ prefix, resolve, reject });
      })
        .then((credential) => {
          // An invalidation that arrived while we were reading may describe a newer state.
          if (startedIn !== generation) return credential;
          const fetchedAt = now();
          if (credential) {
            const previous = cache.get(prefix);
            negative.delete(prefix);
            rememberBounded(
              cache,
              prefix,
              {
                credential,
                fetchedAt,
                touchedAt: Math.max(previous?.touchedAt ?? 0, credential.lastUsedAt?.getTime() ?? 0),
                mark,
              },
              maxEntries,
            );
          } else {
            cache.delete(prefix);
            rememberBounded(negative, prefix, { fetchedAt, mark }, maxNegativeEntries);
          }
          return credential;
        })
        .finally(() => inflight.delete(prefix));
      inflight.set(prefix, pending);
      startReads();
    }
    return pending;
  };

  // lastUsedAt writes, gathered like the reads: one statement for what came in while the last ran.
  const queuedTouches = new Map<string, QueuedTouch>();
  let touchWritesInFlight = 0;
  const writeTouches = () => {
    if (touchWritesInFlight >= MAX_TOUCH_WRITES_IN_FLIGHT || queuedTouches.size === 0) return;
    const batch: QueuedTouch[] = [];
    for (const [tokenId, t] of queuedTouches) {
      batch.push(t);
      queuedTouches.delete(tokenId);
      if (batch.length >= MAX_TOUCHES_PER_WRITE) break;
    }
    touchWritesInFlight++;
    touchAgentTokensLastUsed(deps.sql, { touches: batch, minIntervalMs: lastUsedIntervalMs })
      .catch((error: unknown) => {
        // Not critical; try again on a later push.
        for (const t of batch) {
          const current = cache.get(t.prefix);
          if (current) current.touchedAt = 0;
        }
        options.onBackgroundError?.(error);
      })
      .finally(() => {
        touchWritesInFlight--;
        writeTouches();
      });
  };

  const touch = (prefix: string, entry: Entry, at: number) => {
    if (at - entry.touchedAt < lastUsedIntervalMs) return;
    entry.touchedAt = at;
    queuedTouches.set(entry.credential.tokenId, { prefix, tokenId: entry.credential.tokenId, at: new Date(at) });
    writeTouches();
  };

  const readMark = async (prefix: string): Promise<string | null> => {
    if (!deps.readChangeMark) return null;
    try {
      return await deps.readChangeMark(prefix);
    } catch (error) {
      throw unavailable(error);
    }
  };

  return {
    async verify(token: string, hooks: VerifyHooks = {}): Promise<AgentIdentity> {
      const parsed = typeof token === "string" ? parseAgentToken(token) : undefined;
      if (!parsed) throw unauthenticated();
      stats.verifications++;
      const prefix = parsed.prefix;
      const mark = await readMark(prefix);
      const at = now();
      const known = negative.get(prefix);
      if (known && at - known.fetchedAt < negativeTtlMs && (mark === null || known.mark === mark)) {
        stats.negativeHits++;
        throw unauthenticated();
      }
      let entry = cache.get(prefix);
      const changed = entry !== undefined && mark !== null && entry.mark !== mark;
      if (!entry || changed || at - entry.fetchedAt >= ttlMs) {
        hooks.beforeLookup?.();
        let credential: AgentTokenCredential | null;
        try {
          credential = await lookup(prefix, mark);
        } catch (error) {
          // A copy known to be out of date is never served, whatever the database's state.
          const stale = entry && !changed && at - entry.fetchedAt < staleIfErrorMs ? entry : undefined;
          if (!stale) throw unavailable(error);
          credential = stale.credential;
        }
        if (!credential) throw unauthenticated();
        entry = cache.get(prefix) ?? { credential, fetchedAt: at, touchedAt: at, mark };
      }
      const c = entry.credential;
      if (!secretMatches(parsed.secret, c.secretHash)) throw unauthenticated();
      if (c.revokedAt && c.revokedAt.getTime() <= at) throw unauthenticated();
      if (c.expiresAt && c.expiresAt.getTime() <= at) throw unauthenticated();
      touch(prefix, entry, at);
      return {
        tokenId: c.tokenId,
        tokenPrefix: prefix,
        nodeId: c.nodeId,
        organizationId: c.organizationId,
        networkId: c.networkId,
        networkSlug: c.networkSlug,
      };
    },
    invalidate(tokenPrefix: string) {
      generation++;
      cache.delete(tokenPrefix);
      negative.delete(tokenPrefix);
    },
    clear() {
      generation++;
      cache.clear();
      negative.clear();
    },
    get size() {
      return cache.size;
    },
    get negativeSize() {
      return negative.size;
    },
    get stats() {
      return stats;
    },
  };
}
