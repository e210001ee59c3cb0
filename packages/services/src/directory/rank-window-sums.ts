import {
  sumProbeRankTotals,
  sumProbeRankWindows,
  type ProbeRankSums,
  type ProbeRankTotalRange,
  type ProbeRankTotalTable,
  type RollupCut,
} from "@rpcpulse/db/directory";
import { type SqlPool } from "@rpcpulse/db/sql";
import { mergeSummary } from "@rpcpulse/prober";
import { ceilTo, FIVE_MIN_MS, floorTo, HOUR_MS } from "./rank-rollups.js";

const DAY_MS = 86_400_000;

/**
 * Which rollup rows make up a window of `spanMs` ending now: for 24 h, 7 d and 30 d the whole days
 * inside it (probe_rank_1d), the whole hours around them (the window starts at its first whole hour),
 * 5-minute buckets for the hour being filled; for 1 h only 5-minute buckets; then the raw tail from
 * the watermark.
 */
export function windowParts(spanMs: number, now: number, watermark: number) {
  const start = now - spanMs;
  if (spanMs <= HOUR_MS) {
    const epoch = new Date(0);
    return {
      start,
      hourFrom: epoch,
      hourTo: epoch,
      fiveFrom: new Date(ceilTo(start, FIVE_MIN_MS)),
      fiveTo: new Date(watermark),
    };
  }
  const hourFrom = ceilTo(start, HOUR_MS);
  const hourTo = Math.max(hourFrom, floorTo(watermark, HOUR_MS));
  // Days are summed once closed (rank-rollups.ts), so only days before the hour being filled's day.
  const dayFrom = Math.min(ceilTo(hourFrom, DAY_MS), hourTo);
  const dayTo = Math.max(dayFrom, floorTo(hourTo, DAY_MS));
  return {
    start: hourFrom,
    hourFrom: new Date(hourFrom),
    hourTo: new Date(hourTo),
    dayFrom: new Date(dayFrom),
    dayTo: new Date(dayTo),
    fiveFrom: new Date(hourTo),
    fiveTo: new Date(watermark),
  };
}

export type WindowParts = ReturnType<typeof windowParts>;

/** Each window's sums per (endpoint, vantage point): `a`'s rows with `b`'s added in place, then `b`'s others. */
export function addWindowSums(a: ProbeRankSums[][], b: readonly ProbeRankSums[][]): ProbeRankSums[][] {
  return a.map((rows, w) => {
    const more = b[w] ?? [];
    if (more.length === 0) return rows;
    const at = new Map(rows.map((r) => [`${r.endpointId}/${r.vantagePointId}`, r]));
    const out = [...rows];
    for (const r of more) {
      const into = at.get(`${r.endpointId}/${r.vantagePointId}`);
      if (into) mergeSummary(into, r);
      else out.push(r);
    }
    return out;
  });
}

/** The kept range (probe_rank_totals) of a window's settled hours or settled 5-minute buckets. */
function totalRange(key: string, table: ProbeRankTotalTable, from: Date, to: Date, cut: Date): ProbeRankTotalRange {
  return { key, table, from, to: new Date(Math.min(to.getTime(), cut.getTime())) };
}

/**
 * The windows' settled rows as kept running totals (probe_rank_totals, moved by the buckets that
 * entered and left them since the last round): the 1 h window's 5-minute buckets; a longer window's
 * hours (every hour of it: the totals need no days) and the 5-minute buckets of the hour being filled,
 * shared by every such window when they agree. Each range ends at the rollup pass's cut.
 */
export function planWindowTotals(
  parts: readonly WindowParts[],
  spansMs: readonly number[],
  cut: RollupCut,
): { ranges: ProbeRankTotalRange[]; windows: string[][] } {
  const ranges = new Map<string, ProbeRankTotalRange>();
  const hourWindows = parts.filter((_, i) => (spansMs[i] ?? 0) > HOUR_MS);
  const shared = hourWindows.every(
    (p) =>
      p.fiveFrom.getTime() === hourWindows[0]?.fiveFrom.getTime() &&
      p.fiveTo.getTime() === hourWindows[0]?.fiveTo.getTime(),
  );
  const windows = parts.map((p, i) => {
    const name = `${(spansMs[i] ?? 0) / HOUR_MS}h`;
    const fiveKey = (spansMs[i] ?? 0) <= HOUR_MS ? name : shared ? "hour" : `${name}:hour`;
    ranges.set(fiveKey, totalRange(fiveKey, "probe_rank_5m", p.fiveFrom, p.fiveTo, cut.fiveFrom));
    if ((spansMs[i] ?? 0) <= HOUR_MS) return [fiveKey];
    ranges.set(name, totalRange(name, "probe_rank_1h", p.hourFrom, p.hourTo, cut.hourFrom));
    return [name, fiveKey];
  });
  return { ranges: [...ranges.values()], windows };
}

/**
 * A window's rows from the cut on, the complement of its kept totals: the hours from the cut (the
 * whole days among them from probe_rank_1d, which the pass has summed again) and the 5-minute buckets
 * from the cut. On a steady round that is the hour being rewritten and a bucket or two.
 */
function restParts(p: WindowParts, cut: RollupCut) {
  const hourFrom = Math.max(p.hourFrom.getTime(), cut.hourFrom.getTime());
  const hourTo = p.hourTo.getTime();
  const dayFrom = Math.min(ceilTo(hourFrom, DAY_MS), hourTo);
  const dayTo = Math.max(dayFrom, floorTo(hourTo, DAY_MS));
  return {
    hourFrom: new Date(hourFrom),
    hourTo: p.hourTo,
    dayFrom: new Date(dayFrom),
    dayTo: new Date(dayTo),
    fiveFrom: new Date(Math.max(p.fiveFrom.getTime(), cut.fiveFrom.getTime())),
    fiveTo: p.fiveTo,
  };
}

/**
 * The windows' rollup sums in two reads: `settled` starts at once with the rows before the cut (the
 * rollup pass never rewrites them, so it can run beside the pass on another session), read from the
 * running totals (planWindowTotals); `rest` reads the rows from the cut (restParts) once the pass has
 * written them and adds both.
 */
export function sumWindowsAroundPass(
  pool: SqlPool,
  endpointIds: readonly string[],
  parts: readonly WindowParts[],
  spansMs: readonly number[],
  cut: RollupCut,
): { rest: () => Promise<ProbeRankSums[][]> } {
  const plan = planWindowTotals(parts, spansMs, cut);
  const settled = sumProbeRankTotals(pool, endpointIds, plan.ranges, plan.windows);
  // Awaited by rest(); a pass that fails first must not leave this rejection unhandled.
  settled.catch(() => undefined);
  return {
    rest: async () => {
      const rest = sumProbeRankWindows(
        pool,
        parts.map((p) => ({ endpointIds, ...restParts(p, cut) })),
      );
      const [a, b] = await Promise.all([settled, rest]);
      return addWindowSums(a, b);
    },
  };
}
