/**
 * An endpoint's vote for the consensus head when several server regions probe it: the regions that
 * report it (region-quorum.ts) must reach it with a quorum, and its head is the highest one that a
 * quorum of regions saw (the quorum-th highest, projected to the decision time). One region's view
 * alone neither makes an endpoint vote nor moves its head while two or more regions report.
 */
import type { EndpointHeadInput } from "@rpcpulse/db/ingest";
import type { EndpointRegionHeadInput } from "@rpcpulse/db/directory";
import { observationAnchor, projectHead } from "@rpcpulse/domain";
import { regionQuorum, selectReportingRegions } from "../directory/region-quorum.js";

export interface RegionHeadVoteSettings {
  at: number;
  blockIntervalMs: number;
  share: number;
  roundMs: number;
}

/**
 * Per endpoint, the observation it votes with, or nothing when no quorum of its reporting regions
 * reaches it. A region reaches the endpoint when it has a successful probe with a head in the window
 * and, while two or more regions report, its newest probe succeeded too (its view now, not minutes
 * ago). With one reporting region this is the single-region rule: its newest successful probe.
 */
export function selectRegionHeadVotes(
  rows: readonly EndpointRegionHeadInput[],
  settings: RegionHeadVoteSettings,
): EndpointHeadInput[] {
  const byEndpoint = new Map<string, EndpointRegionHeadInput[]>();
  for (const r of rows) byEndpoint.set(r.endpointId, [...(byEndpoint.get(r.endpointId) ?? []), r]);
  const votes: EndpointHeadInput[] = [];
  for (const list of byEndpoint.values()) {
    const reporting = new Set(
      selectReportingRegions(new Map(list.map((r) => [r.region, r.lastProbeAt.getTime()])), settings.roundMs),
    );
    const quorum = regionQuorum(reporting.size, settings.share);
    const reached: Array<{ vote: EndpointHeadInput; projected: number; region: string }> = [];
    for (const r of list) {
      if (!reporting.has(r.region) || r.headBlock === null || r.observedAt === null) continue;
      if (reporting.size > 1 && !r.lastOk) continue;
      const vote: EndpointHeadInput = {
        networkId: r.networkId,
        endpointId: r.endpointId,
        claimantOrganizationId: r.claimantOrganizationId,
        headBlock: r.headBlock,
        headTime: r.headTime,
        observedAt: r.observedAt,
      };
      const anchor = observationAnchor(
        {
          source: r.region,
          headBlock: r.headBlock,
          headTimeMs: r.headTime?.getTime() ?? null,
          observedAtMs: r.observedAt.getTime(),
        },
        settings.blockIntervalMs,
      );
      reached.push({ vote, region: r.region, projected: projectHead(anchor, settings.at, settings.blockIntervalMs) });
    }
    reached.sort((a, b) => b.projected - a.projected || a.region.localeCompare(b.region));
    const chosen = reached.length >= quorum ? reached[quorum - 1] : undefined;
    if (chosen) votes.push(chosen.vote);
  }
  return votes;
}
