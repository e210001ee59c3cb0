import { listVantageEndpointIds } from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";

/**
 * Which endpoints an agent may report vantage probes for, per node network: the listed endpoints of
 * the node's chain. Looked up in PostgreSQL at most every `ttlMs` per network; when PostgreSQL is away
 * the last answer is used, and with none at all the answer is null (the probes are then dropped,
 * the batch itself still accepted: ingest must keep working on Redis alone).
 */
export interface VantageEndpointFilter {
  allowedFor(networkId: string): Promise<ReadonlySet<string> | null>;
}

export function createVantageEndpointFilter(
  deps: { sql: SqlClient },
  options: { ttlMs?: number; now?: () => number; onError?: (error: unknown) => void } = {},
): VantageEndpointFilter {
  const ttlMs = options.ttlMs ?? 60_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { ids: ReadonlySet<string>; at: number }>();
  const inFlight = new Map<string, Promise<ReadonlySet<string> | null>>();

  const load = async (networkId: string): Promise<ReadonlySet<string> | null> => {
    try {
      const ids = new Set(await listVantageEndpointIds(deps.sql, networkId));
      cache.set(networkId, { ids, at: now() });
      return ids;
    } catch (error) {
      options.onError?.(error);
      return cache.get(networkId)?.ids ?? null;
    }
  };

  return {
    allowedFor(networkId) {
      const hit = cache.get(networkId);
      if (hit && now() - hit.at < ttlMs) return Promise.resolve(hit.ids);
      let pending = inFlight.get(networkId);
      if (!pending) {
        pending = load(networkId).finally(() => inFlight.delete(networkId));
        inFlight.set(networkId, pending);
      }
      return pending;
    },
  };
}
