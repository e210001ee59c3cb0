// The sorted-list helpers of the reference lag tracker (reference-network-heads.ts), as of commit 701a104.
/**
 * Time-ordered lists of the lag tracker (network-heads.ts): observations and measured samples are
 * kept sorted by time (`at`), short and bounded, and searched by these.
 */

export function nearest<T extends { at: number }>(list: readonly T[], t: number): T | undefined {
  // Lists are short and sorted by time: binary search the insertion point, then compare neighbours.
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at < t) lo = mid + 1;
    else hi = mid;
  }
  const after = list[lo];
  const before = list[lo - 1];
  if (!after) return before;
  if (!before) return after;
  return t - before.at <= after.at - t ? before : after;
}

/**
 * The observation to project from for time t: the newest one read at or before t (its head existed
 * then, so projecting forward is a tight lower bound), else the first one after t.
 */
export function atOrBefore<T extends { at: number }>(
  list: readonly T[],
  t: number,
  maxDistance: number,
): T | undefined {
  // The common case, a live sample against a peer's observations: all of them at or before t.
  const last = list[list.length - 1];
  if (last !== undefined && last.at <= t) return t - last.at <= maxDistance ? last : undefined;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at <= t) lo = mid + 1;
    else hi = mid;
  }
  const before = list[lo - 1];
  if (before && t - before.at <= maxDistance) return before;
  const after = list[lo];
  return after && after.at - t <= maxDistance ? after : undefined;
}

/**
 * The sample times at which atOrBefore(own, t, maxDistance) can pick one of the `fresh`
 * observations: a range containing every such time (it may hold others; callers check exactly).
 * An observation is picked from its own time until the next one's (within maxDistance), and
 * before its time only where the previous one is more than maxDistance away. For a batch's newest
 * sample that is [its time, its time + maxDistance]: the other nodes' samples measured before it
 * cannot change, and revise() skips them without a search.
 */
export function freshReach(
  own: readonly { at: number }[],
  fresh: ReadonlySet<number>,
  maxDistance: number,
): { from: number; to: number } {
  let from = Infinity;
  let to = -Infinity;
  own.forEach((o, k) => {
    if (!fresh.has(o.at)) return;
    const prev = own[k - 1];
    const low =
      prev === undefined ? o.at - maxDistance : Math.min(o.at, Math.max(o.at - maxDistance, prev.at + maxDistance));
    from = Math.min(from, low);
    to = Math.max(to, o.at + maxDistance);
  });
  return { from, to };
}

/** Insert by time, keep the newest `max`; false (nothing changed) when an item of that time is there. */
export function insertSorted<T extends { at: number }>(list: T[], item: T, max: number): boolean {
  let i = list.length;
  while (i > 0 && list[i - 1]!.at > item.at) i--;
  if (list[i - 1]?.at === item.at) return false;
  list.splice(i, 0, item);
  if (list.length > max) list.splice(0, list.length - max);
  return true;
}

/** Whether `item` itself is still in the time-sorted list (not trimmed or pruned since). */
export function holds<T extends { at: number }>(list: readonly T[] | undefined, item: T): boolean {
  if (!list) return false;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.at < item.at) lo = mid + 1;
    else hi = mid;
  }
  return list[lo] === item;
}

/**
 * Items filed by the second of their time, so the items within a time range are found without a
 * scan of them all. Items are never removed one by one: the caller checks that a visited item is
 * still current, and whole seconds are dropped with dropBefore().
 */
export class TimeBuckets<T extends { at: number }> {
  private readonly buckets = new Map<number, T[]>();

  add(item: T): void {
    const b = Math.floor(item.at / 1000);
    let list = this.buckets.get(b);
    if (!list) this.buckets.set(b, (list = []));
    list.push(item);
  }

  /** Visit every item added with from <= at <= to (in no particular order). */
  forEachWithin(from: number, to: number, visit: (item: T) => void): void {
    const first = Math.floor(from / 1000);
    const last = Math.floor(to / 1000);
    const inRange = (list: readonly T[]) => {
      for (const item of list) if (item.at >= from && item.at <= to) visit(item);
    };
    if (last - first + 1 > this.buckets.size) {
      for (const [b, list] of this.buckets) if (b >= first && b <= last) inRange(list);
      return;
    }
    for (let b = first; b <= last; b++) {
      const list = this.buckets.get(b);
      if (list) inRange(list);
    }
  }

  /** Forget the seconds wholly before `at`. */
  dropBefore(at: number): void {
    const keep = Math.floor(at / 1000);
    for (const b of this.buckets.keys()) if (b < keep) this.buckets.delete(b);
  }
}
