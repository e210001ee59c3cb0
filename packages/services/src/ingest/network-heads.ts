import { listNetworkHeads, type SqlClient } from "@rpcpulse/db";

/**
 * The network head per network, as the server computes it for "lag in blocks": the highest head
 * block reported by any node of the network around the same time. Observations come from the
 * batches being written (all nodes of a flush) and, every refreshMs, from the nodes' newest
 * stored samples (other worker replicas, earlier flushes). Later, probe results can feed
 * observe() too. Kept in 5-second buckets for the last `horizonMs`; a sample is compared with the
 * heads seen in its own bucket and the one before (never later ones), so the lag has a resolution
 * of about 5 s worth of blocks.
 */
export interface NetworkHeadTracker {
  observe(networkId: string, times: readonly number[], heads: readonly (number | null)[]): void;
  /** Blocks behind the network head per sample (0 when the node is the head); null without a head. */
  lagBlocks(networkId: string, times: readonly number[], heads: readonly (number | null)[]): (number | null)[];
  /** Load the freshest stored heads (throttled to refreshMs); errors are the caller's to log. */
  refresh(now?: number): Promise<void>;
}

const BUCKET_MS = 5_000;

export function createNetworkHeadTracker(
  deps: { sql: SqlClient },
  options: { refreshMs?: number; horizonMs?: number } = {},
): NetworkHeadTracker {
  const refreshMs = options.refreshMs ?? 10_000;
  const horizonMs = options.horizonMs ?? 15 * 60_000;
  // networkId → bucket index → highest head seen in that bucket.
  const heads = new Map<string, Map<number, number>>();
  let lastRefresh = -Infinity;
  let newestBucket = -Infinity;

  const put = (networkId: string, time: number, head: number) => {
    let byBucket = heads.get(networkId);
    if (!byBucket) heads.set(networkId, (byBucket = new Map()));
    const bucket = Math.floor(time / BUCKET_MS);
    if (head > (byBucket.get(bucket) ?? -Infinity)) byBucket.set(bucket, head);
    if (bucket > newestBucket) {
      newestBucket = bucket;
      prune();
    }
  };

  const prune = () => {
    const cutoff = newestBucket - Math.ceil(horizonMs / BUCKET_MS);
    for (const byBucket of heads.values()) for (const b of byBucket.keys()) if (b < cutoff) byBucket.delete(b);
  };

  return {
    observe(networkId, times, blockHeads) {
      times.forEach((t, i) => {
        const h = blockHeads[i];
        if (h !== null && h !== undefined) put(networkId, t, h);
      });
    },
    lagBlocks(networkId, times, blockHeads) {
      const byBucket = heads.get(networkId);
      return times.map((t, i) => {
        const own = blockHeads[i];
        if (own === null || own === undefined) return null;
        const b = Math.floor(t / BUCKET_MS);
        let head = own;
        for (const k of [b - 1, b]) head = Math.max(head, byBucket?.get(k) ?? -Infinity);
        return head - own;
      });
    },
    async refresh(now = Date.now()) {
      if (now - lastRefresh < refreshMs) return;
      lastRefresh = now;
      for (const h of await listNetworkHeads(deps.sql, new Date(now - 2 * 60_000))) {
        put(h.networkId, h.time.getTime(), h.headBlock);
      }
    },
  };
}
