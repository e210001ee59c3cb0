import {
  ALL_REGIONS,
  getEndpointCapabilities,
  getProbeAvailability,
  listDirectoryEndpoints,
  listProbeSamples,
  listRankingEndpointFacts,
  pruneEndpointFreshnessMinutes,
  setEndpointStatuses,
  upsertEndpointFreshnessMinutes,
  type DirectoryEndpoint,
  type EndpointFreshnessMinute,
  type EndpointStatusValue,
} from "@rpcpulse/db/directory";
import { type SqlPool } from "@rpcpulse/db/sql";
import {
  buildVantageViews,
  detectHeadRegressions,
  freshnessLimits,
  scoreEndpoint,
  SCORING,
  type ScoreSample,
} from "@rpcpulse/prober";
import { applyRegionQuorumWith, groupSamplesByRegion } from "./rank-region-quorum.js";
import { buildRankSamples, freshnessMinutes, freshUptime, toStoredDecisions } from "./rank-samples.js";
import { DEFAULT_REGION_QUORUM_SHARE, nextListingStatusByQuorum } from "./region-quorum.js";
import {
  asReport,
  FRESHNESS_RETENTION_MS,
  FRESHNESS_REWRITE_MS,
  loadDecisions,
  RANK_WINDOWS,
  writeRankingSnapshot,
  type RankDirectoryOptions,
  type RankDirectoryReport,
  type Uptime,
} from "./rank-shared.js";

/**
 * The ranking computed from every raw probe of the 7-day window: the reference the rollup ranking
 * (rankDirectory) is checked against in bench/rank-directory.ts and the tests. Per network, each probe's lag against the consensus head at its own time, the
 * vantage rules (overall view from server probes only; per-region views where agents are capped,
 * outliers discounted and flagged, and an organization never scores what it claims), head regressions,
 * scores per window and view, ranking with hysteresis against the stored order, one snapshot per
 * (window, region) replaced atomically, and listing status transitions from server probes
 * (probation -> active -> dead, never dropped).
 */
export async function rankDirectoryFromRaw(
  deps: { pool: SqlPool },
  options: RankDirectoryOptions = {},
): Promise<RankDirectoryReport> {
  const now = options.now ?? new Date();
  const roundMs = options.roundMs ?? 30_000;
  const quorum = { share: options.regionQuorumShare ?? DEFAULT_REGION_QUORUM_SHARE, roundMs };
  const endpoints = await listDirectoryEndpoints(deps.pool, options.networks ? { networks: options.networks } : {});
  const byNetwork = new Map<string, DirectoryEndpoint[]>();
  for (const e of endpoints) byNetwork.set(e.network, [...(byNetwork.get(e.network) ?? []), e]);

  let snapshots = 0;
  const statusChanges: Array<{ id: string; status: EndpointStatusValue }> = [];
  for (const [network, list] of byNetwork) {
    const ids = list.map((e) => e.id);
    const blockIntervalMs = list[0]?.blockIntervalMs ?? 3_000;
    const limits = freshnessLimits(blockIntervalMs);
    const since = now.getTime() - SCORING.windows["7d"];
    const [rows, facts, caps, d30] = await Promise.all([
      listProbeSamples(deps.pool, { endpointIds: ids, since: new Date(since), until: new Date(now.getTime() + 1) }),
      listRankingEndpointFacts(deps.pool, ids),
      getEndpointCapabilities(deps.pool, ids),
      getProbeAvailability(deps.pool, {
        endpointIds: ids,
        from: new Date(now.getTime() - 30 * 86_400_000),
        to: new Date(now.getTime() + 1),
      }),
    ]);
    const networkId = facts.get(ids[0] ?? "")?.networkId;
    const decisions = networkId
      ? await loadDecisions(deps.pool, networkId, since - SCORING.lag.decisionMaxDistanceMs)
      : [];
    const claimants = new Map(ids.map((id) => [id, facts.get(id)?.claimantOrganizationId ?? null]));
    const samples = buildRankSamples(rows, toStoredDecisions(decisions), claimants, { blockIntervalMs, roundMs });
    const views = buildVantageViews(samples, { blockIntervalMs, claimants, overallRegion: ALL_REGIONS });
    const overall = views[0]?.samples ?? new Map<string, ScoreSample[]>();
    const regionSamples = new Map(ids.map((id) => [id, groupSamplesByRegion(overall.get(id) ?? [])]));

    // Uptime per endpoint from server probes: answered with a fresh head (lagging/stale answers apart).
    const uptime = new Map<string, { uptime: Uptime; lagging: Uptime }>();
    for (const id of ids) {
      const [h24, d7] = freshUptime(overall.get(id) ?? [], limits, blockIntervalMs, now.getTime(), [
        86_400_000,
        SCORING.windows["7d"],
      ]);
      const a30 = d30.get(id);
      uptime.set(id, {
        uptime: {
          h24: h24?.uptime ?? null,
          d7: d7?.uptime ?? null,
          d30: a30 && a30.probes ? (a30.ok - a30.okLagging) / a30.probes : null,
        },
        lagging: {
          h24: h24?.lagging ?? null,
          d7: d7?.lagging ?? null,
          d30: a30 && a30.probes ? a30.okLagging / a30.probes : null,
        },
      });
    }
    const serverRows = rows.filter((r) => r.vantageKind === "server");
    const minutes: EndpointFreshnessMinute[] = ids.flatMap((id) =>
      freshnessMinutes(id, overall.get(id) ?? [], limits, blockIntervalMs, now.getTime() - FRESHNESS_REWRITE_MS),
    );
    await upsertEndpointFreshnessMinutes(deps.pool, minutes);

    for (const window of RANK_WINDOWS) {
      const windowStart = now.getTime() - SCORING.windows[window];
      const regressions = new Map(
        detectHeadRegressions(
          serverRows
            .filter((r) => r.time.getTime() > windowStart)
            .map((r) => ({
              endpointId: r.endpointId,
              ok: r.ok,
              headBlock: r.headBlock,
              headTime: r.headTime?.getTime() ?? null,
              observedAt: r.time.getTime(),
            })),
        ).perEndpoint.map((p) => [p.endpointId, p.regressions]),
      );
      for (const view of views) {
        const scores = ids.map((id) =>
          scoreEndpoint({
            endpointId: id,
            samples: view.samples.get(id) ?? [],
            capabilities: asReport(caps.get(id)?.report),
            now: now.getTime(),
            window,
            blockIntervalMs,
            freshness: limits,
          }),
        );
        // Overall view: the status needs a quorum of the reporting server regions (region-quorum.ts).
        const q =
          view.region === ALL_REGIONS
            ? applyRegionQuorumWith(
                scores,
                { window, now: now.getTime(), samples: regionSamples },
                quorum,
                (endpointId, _region, samples) =>
                  scoreEndpoint({ endpointId, samples, now: now.getTime(), window, blockIntervalMs, freshness: limits })
                    .status,
              )
            : undefined;
        await writeRankingSnapshot(deps.pool, { network, window, region: view.region }, q?.scores ?? scores, {
          uptime,
          regressions,
          notes: view.notes,
          now: now,
          quorum: q?.verdicts,
        });
        snapshots++;
      }
    }
    for (const e of list) {
      const next = nextListingStatusByQuorum(e.status, regionSamples.get(e.id), quorum);
      if (next !== e.status) statusChanges.push({ id: e.id, status: next });
    }
  }
  await pruneEndpointFreshnessMinutes(deps.pool, { before: new Date(now.getTime() - FRESHNESS_RETENTION_MS) });
  const changed = await setEndpointStatuses(deps.pool, statusChanges);
  return { networks: byNetwork.size, snapshots, endpoints: endpoints.length, statusChanges: changed };
}
