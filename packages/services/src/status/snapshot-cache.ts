/**
 * In-process cache of public status-page snapshots. Entries live STATUS_SNAPSHOT_TTL_MS; writes in
 * this process (incidents, maintenance, page edits) clear it at once, writes in another process
 * (the worker opening an auto incident) show within the TTL.
 */
export const STATUS_SNAPSHOT_TTL_MS = 30_000;

interface Entry<T> {
  value: Promise<T>;
  expiresAt: number;
}

const entries = new Map<string, Entry<unknown>>();
const MAX_ENTRIES = 500;

const STATS = Symbol.for("rpcpulse.statusSnapshotStats");
type StatsHolder = { [STATS]?: { hits: number; misses: number } };

/** Snapshot reads answered from the cache (hits) or loaded (misses) in this process, for /metrics. */
export function statusSnapshotCacheStats(): { hits: number; misses: number } {
  const holder = globalThis as StatsHolder;
  holder[STATS] ??= { hits: 0, misses: 0 };
  return holder[STATS];
}

export async function cachedSnapshot<T>(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
  const hit = entries.get(key) as Entry<T> | undefined;
  const stats = statusSnapshotCacheStats();
  if (hit && hit.expiresAt > now) {
    stats.hits++;
    return hit.value;
  }
  stats.misses++;
  const value = load();
  entries.set(key, { value, expiresAt: now + STATUS_SNAPSHOT_TTL_MS });
  value.catch(() => entries.delete(key));
  if (entries.size > MAX_ENTRIES) {
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  return value;
}

/**
 * Bumped by every invalidation. Kept on globalThis so that every bundle of this module in the
 * process (Next compiles proxy.ts apart from the routes) sees one counter: the web app's page
 * response cache (apps/web/src/features/status/page-response-cache.ts) drops pages rendered before it.
 */
const GENERATION = Symbol.for("rpcpulse.statusSnapshotGeneration");
type GenerationHolder = { [GENERATION]?: number };

export function statusSnapshotGeneration(): number {
  return (globalThis as GenerationHolder)[GENERATION] ?? 0;
}

export function invalidateStatusSnapshots(): void {
  entries.clear();
  (globalThis as GenerationHolder)[GENERATION] = statusSnapshotGeneration() + 1;
}
