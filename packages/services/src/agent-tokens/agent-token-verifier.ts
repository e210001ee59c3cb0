import { AppError } from "@rpcpulse/config";
import {
  findAgentTokenCredential,
  touchAgentTokenLastUsed,
  type AgentTokenCredential,
  type SqlClient,
} from "@rpcpulse/db";
import { parseAgentToken, secretMatches } from "./token-format.js";

/** Who a verified agent token speaks for. */
export interface AgentIdentity {
  tokenId: string;
  nodeId: string;
  organizationId: string;
  networkId: string;
}

export interface AgentTokenVerifierOptions {
  /** How long a looked-up token is trusted without asking PostgreSQL again (≤ 30 s). */
  ttlMs?: number;
  /**
   * While PostgreSQL cannot be reached, a token looked up less than this long ago is still
   * accepted (agents keep pushing through a short database outage). Revocations are pushed to
   * the cache (invalidate()), and clear() runs when that channel reconnects.
   */
  staleIfErrorMs?: number;
  maxEntries?: number;
  /** lastUsedAt is written at most once per this interval per token. */
  lastUsedIntervalMs?: number;
  now?: () => number;
  onBackgroundError?: (error: unknown) => void;
}

export interface AgentTokenVerifier {
  /** Throws AppError UNAUTHENTICATED (unknown, malformed, expired, revoked) or UNAVAILABLE (database down, not cached). */
  verify(token: string): Promise<AgentIdentity>;
  invalidate(tokenPrefix: string): void;
  clear(): void;
  readonly size: number;
}

interface Entry {
  credential: AgentTokenCredential | null;
  fetchedAt: number;
  touchedAt: number;
}

const MAX_TTL_MS = 30_000;
const unauthenticated = () => new AppError("UNAUTHENTICATED", "Unknown, expired or revoked agent token.");

export function createAgentTokenVerifier(
  deps: { sql: SqlClient },
  options: AgentTokenVerifierOptions = {},
): AgentTokenVerifier {
  const ttlMs = Math.min(options.ttlMs ?? MAX_TTL_MS, MAX_TTL_MS);
  const staleIfErrorMs = options.staleIfErrorMs ?? 5 * 60_000;
  const maxEntries = options.maxEntries ?? 50_000;
  const lastUsedIntervalMs = options.lastUsedIntervalMs ?? 60_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Entry>();
  const inflight = new Map<string, Promise<Entry>>();
  let generation = 0;

  const remember = (prefix: string, entry: Entry) => {
    cache.delete(prefix);
    cache.set(prefix, entry);
    if (cache.size > maxEntries) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
  };

  const lookup = (prefix: string): Promise<Entry> => {
    let pending = inflight.get(prefix);
    if (!pending) {
      const startedIn = generation;
      pending = findAgentTokenCredential(deps.sql, prefix)
        .then((credential) => {
          const previous = cache.get(prefix);
          const entry: Entry = {
            credential,
            fetchedAt: now(),
            touchedAt: Math.max(previous?.touchedAt ?? 0, credential?.lastUsedAt?.getTime() ?? 0),
          };
          // An invalidation that arrived while we were reading may describe a newer state.
          if (startedIn === generation) remember(prefix, entry);
          return entry;
        })
        .finally(() => inflight.delete(prefix));
      inflight.set(prefix, pending);
    }
    return pending;
  };

  const touch = (prefix: string, entry: Entry, at: number) => {
    if (!entry.credential || at - entry.touchedAt < lastUsedIntervalMs) return;
    entry.touchedAt = at;
    touchAgentTokenLastUsed(deps.sql, {
      tokenId: entry.credential.tokenId,
      now: new Date(at),
      minIntervalMs: lastUsedIntervalMs,
    }).catch((error: unknown) => {
      // Not critical; try again on a later push.
      const current = cache.get(prefix);
      if (current) current.touchedAt = 0;
      options.onBackgroundError?.(error);
    });
  };

  return {
    async verify(token: string): Promise<AgentIdentity> {
      const parsed = typeof token === "string" ? parseAgentToken(token) : undefined;
      if (!parsed) throw unauthenticated();
      const at = now();
      let entry = cache.get(parsed.prefix);
      if (!entry || at - entry.fetchedAt >= ttlMs) {
        try {
          entry = await lookup(parsed.prefix);
        } catch (error) {
          const stale = entry && at - entry.fetchedAt < staleIfErrorMs ? entry : undefined;
          if (!stale) {
            throw new AppError("UNAVAILABLE", "Token store unavailable; retry later.", {
              cause: error,
              retryAfterSeconds: 5,
            });
          }
          entry = stale;
        }
      }
      const c = entry.credential;
      if (!c || !secretMatches(parsed.secret, c.secretHash)) throw unauthenticated();
      if (c.revokedAt && c.revokedAt.getTime() <= at) throw unauthenticated();
      if (c.expiresAt && c.expiresAt.getTime() <= at) throw unauthenticated();
      touch(parsed.prefix, entry, at);
      return { tokenId: c.tokenId, nodeId: c.nodeId, organizationId: c.organizationId, networkId: c.networkId };
    },
    invalidate(tokenPrefix: string) {
      generation++;
      cache.delete(tokenPrefix);
    },
    clear() {
      generation++;
      cache.clear();
    },
    get size() {
      return cache.size;
    },
  };
}
