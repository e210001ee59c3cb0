import { SCORING } from "./methodology.js";
import type { EndpointScore, EndpointStatus } from "./score.js";

export interface RankOptions {
  /** Score points an endpoint must lead the one above it by to pass it. Default SCORING.ranking.hysteresis. */
  hysteresis?: number;
}

export interface RankedEndpoint {
  endpointId: string;
  rank: number;
  score: number;
  status: EndpointStatus;
  /** 0 established (healthy/degraded/lagging/stale: ordered by score), 1 probation, 2 dead. */
  tier: 0 | 1 | 2;
  dead: boolean;
  probation: boolean;
  /** Positions gained since the previous order (negative: lost); null when new. */
  moved: number | null;
}

const TIER: Record<EndpointStatus, 0 | 1 | 2> = {
  healthy: 0,
  degraded: 0,
  lagging: 0,
  stale: 0,
  probation: 1,
  dead: 2,
};

/**
 * Orders endpoints: established ones first, then probation, then dead ones (kept and marked, never
 * dropped). Within a tier the previous order is kept unless a lower endpoint's score beats the one
 * above it by more than the hysteresis margin, so near-equal endpoints do not swap every cycle.
 */
export function rankEndpoints(
  previousOrder: readonly string[],
  scores: readonly EndpointScore[],
  options: RankOptions = {},
): RankedEndpoint[] {
  const margin = options.hysteresis ?? SCORING.ranking.hysteresis;
  const byId = new Map(scores.map((s) => [s.endpointId, s]));
  const previousIndex = new Map<string, number>();
  previousOrder.forEach((id, i) => {
    if (byId.has(id) && !previousIndex.has(id)) previousIndex.set(id, i);
  });
  // Start from the previous order; newcomers enter below it, best score first.
  const known = [...previousIndex.keys()];
  const newcomers = scores
    .filter((s) => !previousIndex.has(s.endpointId))
    .sort((a, b) => b.score - a.score || a.endpointId.localeCompare(b.endpointId))
    .map((s) => s.endpointId);
  const start = [...known, ...newcomers];
  const tierOf = (id: string): number => TIER[byId.get(id)?.status ?? "dead"];
  const scoreOf = (id: string): number => byId.get(id)?.score ?? 0;

  const ordered: string[] = [];
  for (const tier of [0, 1, 2]) {
    const list = start.filter((id) => tierOf(id) === tier);
    // Threshold bubble sort: terminates because every swap raises the sum of position-weighted scores.
    let swapped = true;
    while (swapped) {
      swapped = false;
      for (let i = 0; i + 1 < list.length; i++) {
        const a = list[i] as string;
        const b = list[i + 1] as string;
        if (scoreOf(b) > scoreOf(a) + margin) {
          list[i] = b;
          list[i + 1] = a;
          swapped = true;
        }
      }
    }
    ordered.push(...list);
  }
  const previousRank = new Map(known.map((id, i) => [id, i + 1]));
  return ordered.map((id, i) => {
    const s = byId.get(id);
    const status = s?.status ?? "dead";
    const prev = previousRank.get(id);
    return {
      endpointId: id,
      rank: i + 1,
      score: s?.score ?? 0,
      status,
      tier: TIER[status],
      dead: status === "dead",
      probation: status === "probation",
      moved: prev === undefined ? null : prev - (i + 1),
    };
  });
}
