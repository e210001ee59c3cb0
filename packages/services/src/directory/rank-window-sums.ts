import { sumProbeRankWindows, type ProbeRankSums, type RollupCut } from "@rpcpulse/db/directory";
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

/**
 * The windows' rollup sums in two reads: `settled` starts at once with the rows before the cut (the
 * rollup pass never rewrites them, so it can run beside the pass on another session), `rest` reads
 * the rows from the cut once the pass has written them and adds both.
 */
export function sumWindowsAroundPass(
  pool: SqlPool,
  endpointIds: readonly string[],
  parts: readonly WindowParts[],
  cut: RollupCut,
): { rest: () => Promise<ProbeRankSums[][]> } {
  const windows = parts.map((p) => ({ endpointIds, ...p }));
  const settled = sumProbeRankWindows(pool, windows, { before: cut });
  // Awaited by rest(); a pass that fails first must not leave this rejection unhandled.
  settled.catch(() => undefined);
  return {
    rest: async () => {
      const rest = sumProbeRankWindows(pool, windows, { from: cut });
      const [a, b] = await Promise.all([settled, rest]);
      return addWindowSums(a, b);
    },
  };
}
