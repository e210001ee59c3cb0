import { freshnessLimits, type FreshnessLimits } from "@rpcpulse/domain";

/** What freshness needs of one probe (a ScoreSample carries these). */
export interface FreshnessInput {
  at: number;
  ok: boolean;
  /** Blocks behind the consensus head at this probe; null when unknown. */
  lagBlocks: number | null;
  /** Head block read by this probe, when known. */
  headBlock?: number | null;
  /** Head age at this probe (probe time − head block time), when the family reports head times. */
  headAgeMs?: number | null;
}

export interface ProbeFreshness {
  /** Head age used: as reported, else time since this head was first seen by our probes (a lower bound). */
  headAgeMs: number | null;
  /** Lag or head age past the chain's limits (stale probes are lagging as well). */
  lagging: boolean;
  /**
   * Lagging by head age and its head is not above what a probe at least two block intervals earlier
   * read: the node is stuck, not just behind.
   */
  stale: boolean;
}

export type FreshnessState = "fresh" | "lagging" | "stale";

export { freshnessLimits, type FreshnessLimits };

/**
 * One successful probe's flags: `bestSince` is when the highest head read up to it was first read (null:
 * no head read yet), `earlier` the highest head read two or more block intervals before it.
 */
function flagsOf(
  s: FreshnessInput,
  bestSince: number | null,
  earlier: number | null,
  limits: FreshnessLimits,
): ProbeFreshness {
  const head = s.headBlock ?? null;
  const reported = s.headAgeMs ?? null;
  const derived = head !== null && bestSince !== null ? s.at - bestSince : null;
  const headAge = reported !== null ? Math.max(0, reported) : derived;
  const oldHead = headAge !== null && headAge >= limits.headAgeMs;
  const behind = s.lagBlocks !== null && s.lagBlocks >= limits.lagBlocks;
  const stuck = head !== null && earlier !== null && earlier >= head;
  return { headAgeMs: headAge, lagging: behind || oldHead, stale: oldHead && stuck };
}

/**
 * Freshness of each probe of one endpoint (any order in; results in input order). A probe is lagging
 * when its lag reaches limits.lagBlocks or its head age reaches limits.headAgeMs (the same limits as
 * nodes: freshnessLimits of the block interval), stale when it is lagging by head age and its head is
 * not above the highest head read two or more block intervals before it. A failed probe is neither
 * (availability counts it).
 */
export function classifyFreshness(
  samples: readonly FreshnessInput[],
  limits: FreshnessLimits,
  blockIntervalMs: number,
): ProbeFreshness[] {
  const order = samples
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.ok)
    .sort((a, b) => a.s.at - b.s.at || (a.s.headBlock ?? -1) - (b.s.headBlock ?? -1) || a.i - b.i);
  const out: ProbeFreshness[] = samples.map(() => ({ headAgeMs: null, lagging: false, stale: false }));
  // Highest head read up to each probe (inclusive), and when it was first read.
  const prefixMax: Array<number | null> = [];
  let best: number | null = null;
  let bestSince = 0;
  let ref = -1;
  const gap = 2 * Math.max(1, blockIntervalMs);
  order.forEach(({ s, i }, k) => {
    const head = s.headBlock ?? null;
    if (head !== null && (best === null || head > best)) {
      best = head;
      bestSince = s.at;
    }
    prefixMax.push(best);
    while (ref + 1 < k && (order[ref + 1]?.s.at ?? Infinity) <= s.at - gap) ref++;
    const earlier = ref >= 0 ? (prefixMax[ref] ?? null) : null;
    out[i] = flagsOf(s, best === null ? null : bestSince, earlier, limits);
  });
  return out;
}

/**
 * Freshness of an endpoint over a window (samples oldest first): stale when its newest successful
 * probe is stale; lagging when that probe lags, or more than `laggingShareAbove` of its successful
 * probes in the window lagged (as "degraded" is share-based); fresh otherwise. Also the shares.
 */
export function summarizeFreshness(
  samples: readonly FreshnessInput[],
  limits: FreshnessLimits,
  blockIntervalMs: number,
  laggingShareAbove: number,
): { state: FreshnessState; laggingShare: number | null; staleShare: number | null; flags: ProbeFreshness[] } {
  const flags = classifyFreshness(samples, limits, blockIntervalMs);
  let ok = 0;
  let lagging = 0;
  let stale = 0;
  let newest = -1;
  samples.forEach((s, i) => {
    if (!s.ok) return;
    ok++;
    if (flags[i]?.lagging) lagging++;
    if (flags[i]?.stale) stale++;
    if (newest < 0 || s.at >= (samples[newest]?.at ?? -Infinity)) newest = i;
  });
  const last = newest >= 0 ? flags[newest] : undefined;
  const laggingShare = ok ? lagging / ok : null;
  const state: FreshnessState = last?.stale
    ? "stale"
    : last?.lagging || (laggingShare ?? 0) > laggingShareAbove
      ? "lagging"
      : "fresh";
  return { state, laggingShare, staleShare: ok ? stale / ok : null, flags };
}

/**
 * classifyFreshness(samples, limits, blockIntervalMs)[index] without classifying every probe: one pass,
 * no allocation (a window's score only needs its newest successful probe). The same order rules: probes
 * before it by (time, head block, position) set the highest head and when it was first read; probes at
 * least two block intervals earlier set the head it must be above.
 */
export function freshnessOfProbe(
  samples: readonly FreshnessInput[],
  index: number,
  limits: FreshnessLimits,
  blockIntervalMs: number,
): ProbeFreshness {
  const s = samples[index];
  if (!s?.ok) return { headAgeMs: null, lagging: false, stale: false };
  const head = s.headBlock ?? null;
  const key = head ?? -1;
  const gap = 2 * Math.max(1, blockIntervalMs);
  let best: number | null = null;
  let bestSince = 0;
  let earlier: number | null = null;
  for (let j = 0; j < samples.length; j++) {
    const o = samples[j] as FreshnessInput;
    if (!o.ok) continue;
    const h = o.headBlock ?? null;
    const before = o.at < s.at || (o.at === s.at && ((h ?? -1) < key || ((h ?? -1) === key && j <= index)));
    if (!before || h === null) continue;
    if (best === null || h > best || (h === best && o.at < bestSince)) {
      best = h;
      bestSince = o.at;
    }
    if (o.at <= s.at - gap && (earlier === null || h > earlier)) earlier = h;
  }
  return flagsOf(s, best === null ? null : bestSince, earlier, limits);
}
