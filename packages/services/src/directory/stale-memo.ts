/**
 * A stale-while-revalidate memo of the directory's public reads: a value is fresh for `freshMs`, then
 * served stale (up to `staleMs`) while one background refresh runs, so no request waits on the
 * database after the first. A failed first read is forgotten (the next caller tries again); a failed
 * refresh keeps the stale value. Keyed per pool (a WeakMap, so a closed pool's entries go with it)
 * and per key, at most `maxEntries` keys per pool (the oldest goes first). An injected clock that went
 * backwards counts as expired.
 */
export interface StaleMemoOptions {
  freshMs: number;
  staleMs: number;
  maxEntries?: number;
}

interface Entry<T> {
  at: number;
  value: Promise<T>;
  refreshing: boolean;
}

export type StaleMemo<T> = (owner: object, key: string, now: number, load: () => Promise<T>) => Promise<T>;

export function createStaleMemo<T>(options: StaleMemoOptions): StaleMemo<T> {
  const owners = new WeakMap<object, Map<string, Entry<T>>>();
  return (owner, key, now, load) => {
    let entries = owners.get(owner);
    if (!entries) owners.set(owner, (entries = new Map()));
    const memo = entries;
    const hit = memo.get(key);
    const age = hit ? now - hit.at : Infinity;
    if (hit && age >= 0 && age < options.freshMs) return hit.value;
    if (hit && age >= 0 && age < options.staleMs) {
      if (!hit.refreshing) {
        hit.refreshing = true;
        const next = load();
        next.then(
          () => memo.set(key, { at: now, value: next, refreshing: false }),
          () => (hit.refreshing = false),
        );
      }
      return hit.value;
    }
    const value = load();
    memo.set(key, { at: now, value, refreshing: false });
    value.catch(() => memo.delete(key));
    if (options.maxEntries !== undefined && memo.size > options.maxEntries) {
      memo.delete(memo.keys().next().value as string);
    }
    return value;
  };
}
