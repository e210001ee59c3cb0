/**
 * The ranking side of the region quorum (region-quorum.ts): the overall view's status of each
 * endpoint is decided by a quorum of the server regions that report it, each region's status
 * computed from its own probes only. The overall score keeps every region's probes (a region that
 * cannot reach an endpoint lowers its availability); only the status needs the quorum.
 */
import {
  SCORING,
  summaryStatus,
  type EndpointScore,
  type FreshnessLimits,
  type ProbeSummary,
  type ScoreSample,
  type ScoreWindow,
  type VantageSample,
} from "@rpcpulse/prober";
import {
  combineRegionStatuses,
  reportingSamples,
  type RegionQuorumSettings,
  type RegionSamples,
  type RegionVerdict,
} from "./region-quorum.js";

/** Endpoint → server region → its recent probes, oldest first. */
export function groupServerSamplesByRegion(recent: readonly VantageSample[]): Map<string, Map<string, ScoreSample[]>> {
  const out = new Map<string, Map<string, ScoreSample[]>>();
  for (const p of recent) {
    if (p.kind !== "server") continue;
    let byRegion = out.get(p.endpointId);
    if (!byRegion) out.set(p.endpointId, (byRegion = new Map()));
    const list = byRegion.get(p.region);
    if (list) list.push(p.sample);
    else byRegion.set(p.region, [p.sample]);
  }
  for (const byRegion of out.values()) for (const list of byRegion.values()) list.sort((a, b) => a.at - b.at);
  return out;
}

/** Server samples of one endpoint (each carrying its region), by region, oldest first (raw ranking). */
export function groupSamplesByRegion(samples: readonly ScoreSample[]): Map<string, ScoreSample[]> {
  const out = new Map<string, ScoreSample[]>();
  for (const s of samples) {
    const region = s.region ?? "";
    const list = out.get(region);
    if (list) list.push(s);
    else out.set(region, [s]);
  }
  for (const list of out.values()) list.sort((a, b) => a.at - b.at);
  return out;
}

export interface QuorumViewInput {
  window: ScoreWindow;
  now: number;
  blockIntervalMs: number;
  freshness: FreshnessLimits;
  /** The overall view's server summaries: endpoint → region → summary. */
  summaries: ReadonlyMap<string, ReadonlyMap<string, ProbeSummary>>;
  /** Recent server probes: endpoint → region → samples (groupServerSamplesByRegion). */
  samples: ReadonlyMap<string, RegionSamples>;
}

/** The rollup ranking's overall view under the quorum: each region's status from its summary and recent probes. */
export function applyRegionQuorum(
  scores: readonly EndpointScore[],
  input: QuorumViewInput,
  settings: RegionQuorumSettings,
): { scores: EndpointScore[]; verdicts: Map<string, RegionVerdict> } {
  return applyRegionQuorumWith(scores, input, settings, (endpointId, region, recent) => {
    const summary = input.summaries.get(endpointId)?.get(region);
    if (!summary) return null;
    return summaryStatus({
      endpointId,
      window: input.window,
      byRegion: new Map([[region, summary]]),
      recent,
      blockIntervalMs: input.blockIntervalMs,
      freshness: input.freshness,
    });
  });
}

/**
 * The overall view's scores with each status replaced by the quorum of the reporting regions
 * (where two or more regions probed the endpoint in the window; when only one of them still
 * reports, its own status, so a silent region's old probes do not weigh on the status), and
 * the verdict per endpoint to store with the snapshot (components.regionQuorum). `regionStatus`
 * scores one region's probes alone (null: nothing to score).
 */
export function applyRegionQuorumWith(
  scores: readonly EndpointScore[],
  input: { window: ScoreWindow; now: number; samples: ReadonlyMap<string, RegionSamples> },
  settings: RegionQuorumSettings,
  regionStatus: (endpointId: string, region: string, recent: ScoreSample[]) => EndpointScore["status"] | null,
): { scores: EndpointScore[]; verdicts: Map<string, RegionVerdict> } {
  const verdicts = new Map<string, RegionVerdict>();
  const from = input.now - SCORING.windows[input.window];
  const out = scores.map((score) => {
    const byRegion = input.samples.get(score.endpointId);
    const inWindow = new Map(
      [...(byRegion ?? [])].map(([r, list]) => [r, list.filter((s) => s.at > from && s.at <= input.now)] as const),
    );
    for (const [r, list] of inWindow) if (list.length === 0) inWindow.delete(r);
    // One region in the window (a single-region install): its status already is the overall one.
    if (inWindow.size < 2) return score;
    const reporting = reportingSamples(inWindow, settings.roundMs);
    const statuses = new Map<string, EndpointScore["status"]>();
    for (const [region, recent] of reporting) {
      const status = regionStatus(score.endpointId, region, recent);
      if (status !== null) statuses.set(region, status);
    }
    if (statuses.size === 0) return score;
    const verdict = combineRegionStatuses(statuses, settings.share);
    verdict.silent = [...inWindow.keys()].filter((r) => !reporting.has(r)).sort();
    verdicts.set(score.endpointId, verdict);
    // One spread, then the store (a literal with a key after the spread took a slower path per object).
    const decided = { ...score };
    decided.status = verdict.status;
    return decided;
  });
  return { scores: out, verdicts };
}
