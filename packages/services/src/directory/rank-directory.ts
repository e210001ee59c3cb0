import {
  ALL_REGIONS,
  getEndpointCapabilities,
  getProbeAvailability,
  listDirectoryEndpoints,
  listRankingEndpointFacts,
  pruneEndpointFreshnessMinutes,
  pruneProbeRankRollups,
  setEndpointStatuses,
  sumProbeRankWindow,
  upsertEndpointFreshnessMinutes,
  type DirectoryEndpoint,
  type EndpointStatusValue,
  type SqlPool,
} from "@rpcpulse/db";
import {
  addSample,
  buildSummaryViews,
  emptySummary,
  freshnessLimits,
  mergeSummary,
  scoreSummary,
  SCORING,
  type ProbeSummary,
  type ScoreWindow,
  type SummaryView,
  type VantageSummary,
} from "@rpcpulse/prober";
import { applyRegionQuorum, groupServerSamplesByRegion } from "./rank-region-quorum.js";
import { freshnessMinutes } from "./rank-samples.js";
import { DEFAULT_REGION_QUORUM_SHARE, nextListingStatusByQuorum } from "./region-quorum.js";
import {
  ceilTo,
  FIVE_MIN_MS,
  floorTo,
  HOUR_MS,
  rollUpRankProbes,
  ROLLUP_REWRITE_MS,
  type MeasuredProbe,
} from "./rank-rollups.js";
import {
  asReport,
  FRESHNESS_RETENTION_MS,
  RANK_WINDOWS,
  writeRankingSnapshot,
  type RankDirectoryOptions,
  type RankDirectoryReport,
  type Uptime,
} from "./rank-shared.js";

export {
  ACTIVATE_AFTER_OK,
  nextListingStatus,
  RANK_WINDOWS,
  type RankDirectoryOptions,
  type RankDirectoryReport,
} from "./rank-shared.js";

/** 5-minute buckets are kept this long (the 1 h window and the hour being filled). */
const FIVE_MIN_RETENTION_MS = 6 * HOUR_MS;
const HOUR_RETENTION_MS = 35 * 86_400_000;

/**
 * Which rollup rows make up a window ending now: whole hours for 24 h and 7 d (the window starts at
 * its first whole hour), 5-minute buckets for the 1 h window and for the hour being filled, then the
 * raw tail from the watermark.
 */
function windowParts(window: ScoreWindow, now: number, watermark: number) {
  const start = now - SCORING.windows[window];
  if (window === "1h") {
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
  return {
    start: hourFrom,
    hourFrom: new Date(hourFrom),
    hourTo: new Date(hourTo),
    fiveFrom: new Date(hourTo),
    fiveTo: new Date(watermark),
  };
}

/** The window's sources: rollup sums per (endpoint, vantage point) plus the raw tail, with recent probes. */
async function windowSources(
  pool: SqlPool,
  ids: readonly string[],
  window: ScoreWindow,
  now: number,
  watermark: number,
  recent: readonly MeasuredProbe[],
): Promise<VantageSummary[]> {
  const parts = windowParts(window, now, watermark);
  const sums = await sumProbeRankWindow(pool, { endpointIds: ids, ...parts });
  const sources = new Map<string, Map<string, VantageSummary>>();
  const sourceOf = (
    endpointId: string,
    vantagePointId: string,
    init: () => Omit<VantageSummary, "endpointId" | "vantagePointId">,
  ): VantageSummary => {
    let byVp = sources.get(endpointId);
    if (!byVp) sources.set(endpointId, (byVp = new Map()));
    let src = byVp.get(vantagePointId);
    if (!src) byVp.set(vantagePointId, (src = { endpointId, vantagePointId, ...init() }));
    return src;
  };
  for (const r of sums) {
    const { endpointId, vantagePointId, region, kind, organizationId, ...summary } = r;
    sourceOf(endpointId, vantagePointId, () => ({ region, kind, organizationId, summary, recent: [] }));
  }
  for (const p of recent) {
    const at = p.sample.at;
    if (at <= parts.start || at > now) continue;
    const src = sourceOf(p.endpointId, p.vantagePointId, () => ({
      region: p.region,
      kind: p.kind,
      organizationId: p.organizationId,
      summary: emptySummary(),
      recent: [],
    }));
    (src.recent as MeasuredProbe["sample"][]).push(p.sample);
    if (at >= watermark) addSample(src.summary, p.sample, p.flags);
  }
  return [...sources.values()].flatMap((m) => [...m.values()]);
}

function totalOf(byRegion: ReadonlyMap<string, ProbeSummary> | undefined): ProbeSummary {
  const t = emptySummary();
  for (const s of byRegion?.values() ?? []) mergeSummary(t, s);
  return t;
}

/**
 * The ranking job, from rollups: per network, a rollup pass (rank-rollups.ts: the raw probes since the
 * watermark measured against the consensus head and written as 5-minute and hourly buckets), then per
 * window the rollup sums plus the raw tail, the vantage rules over summaries (buildSummaryViews), scores
 * (scoreSummary: the same components; quantiles from the TTFB histogram), ranking with hysteresis, one
 * snapshot per (window, region) replaced atomically, listing status from the recent server probes.
 * rankDirectoryFromRaw computes the same from every raw probe (the reference of the bench and tests).
 */
export async function rankDirectory(
  deps: { pool: SqlPool },
  options: RankDirectoryOptions = {},
): Promise<RankDirectoryReport> {
  const now = (options.now ?? new Date()).getTime();
  const roundMs = options.roundMs ?? 30_000;
  const quorum = { share: options.regionQuorumShare ?? DEFAULT_REGION_QUORUM_SHARE, roundMs };
  const endpoints = await listDirectoryEndpoints(deps.pool, options.networks ? { networks: options.networks } : {});
  const byNetwork = new Map<string, DirectoryEndpoint[]>();
  for (const e of endpoints) byNetwork.set(e.network, [...(byNetwork.get(e.network) ?? []), e]);

  let snapshots = 0;
  const timings = { rollupMs: 0, windowsMs: 0, scoreMs: 0 };
  const statusChanges: Array<{ id: string; status: EndpointStatusValue }> = [];
  for (const [network, list] of byNetwork) {
    const ids = list.map((e) => e.id);
    const blockIntervalMs = list[0]?.blockIntervalMs ?? 3_000;
    const limits = freshnessLimits(blockIntervalMs);
    const [facts, caps, d30] = await Promise.all([
      listRankingEndpointFacts(deps.pool, ids),
      getEndpointCapabilities(deps.pool, ids),
      getProbeAvailability(deps.pool, {
        endpointIds: ids,
        from: new Date(now - 30 * 86_400_000),
        to: new Date(now + 1),
      }),
    ]);
    const claimants = new Map(ids.map((id) => [id, facts.get(id)?.claimantOrganizationId ?? null]));
    const networkId = facts.get(ids[0] ?? "")?.networkId;
    let mark = performance.now();
    const pass = await rollUpRankProbes(deps.pool, {
      endpointIds: ids,
      networkId,
      claimants,
      blockIntervalMs,
      limits,
      roundMs,
      now,
    });

    const uptime = new Map<string, { uptime: Uptime; lagging: Uptime }>();
    const serverRecent = new Map<string, MeasuredProbe["sample"][]>();
    for (const p of pass.recent) {
      if (p.kind !== "server") continue;
      const list = serverRecent.get(p.endpointId);
      if (list) list.push(p.sample);
      else serverRecent.set(p.endpointId, [p.sample]);
    }
    const regionSamples = groupServerSamplesByRegion(pass.recent);
    const freshFrom = floorTo(now - ROLLUP_REWRITE_MS, FIVE_MIN_MS);
    await upsertEndpointFreshnessMinutes(
      deps.pool,
      ids.flatMap((id) => freshnessMinutes(id, serverRecent.get(id) ?? [], limits, blockIntervalMs, freshFrom)),
    );

    timings.rollupMs += performance.now() - mark;
    mark = performance.now();
    const viewsOf = new Map<ScoreWindow, SummaryView[]>();
    for (const window of RANK_WINDOWS) {
      const sources = await windowSources(deps.pool, ids, window, now, pass.watermark, pass.recent);
      viewsOf.set(window, buildSummaryViews(sources, { blockIntervalMs, claimants, overallRegion: ALL_REGIONS }));
    }
    timings.windowsMs += performance.now() - mark;
    mark = performance.now();
    for (const id of ids) {
      const [h24, d7] = (["24h", "7d"] as const).map((w) => totalOf(viewsOf.get(w)?.[0]?.summaries.get(id)));
      const share = (t: ProbeSummary | undefined, n: (t: ProbeSummary) => number) =>
        t && t.probes ? n(t) / t.probes : null;
      const a30 = d30.get(id);
      const d30Share = (n: number) => (a30 && a30.probes ? n / a30.probes : null);
      uptime.set(id, {
        uptime: {
          h24: share(h24, (t) => t.ok - t.lagging),
          d7: share(d7, (t) => t.ok - t.lagging),
          d30: d30Share((a30?.ok ?? 0) - (a30?.okLagging ?? 0)),
        },
        lagging: {
          h24: share(h24, (t) => t.lagging),
          d7: share(d7, (t) => t.lagging),
          d30: d30Share(a30?.okLagging ?? 0),
        },
      });
    }

    for (const window of RANK_WINDOWS) {
      const views = viewsOf.get(window) ?? [];
      const overall = views[0];
      const regressions = new Map(
        ids.map((id) => [id, Math.round(totalOf(overall?.summaries.get(id)).headRegressions)]),
      );
      for (const view of views) {
        const scores = ids.map((id) =>
          scoreSummary({
            endpointId: id,
            window,
            byRegion: view.summaries.get(id) ?? new Map(),
            recent: view.recent.get(id) ?? [],
            capabilities: asReport(caps.get(id)?.report),
            blockIntervalMs,
            freshness: limits,
          }),
        );
        // Overall view: the status needs a quorum of the reporting server regions (region-quorum.ts).
        const q =
          view.region === ALL_REGIONS
            ? applyRegionQuorum(
                scores,
                { window, now, blockIntervalMs, freshness: limits, summaries: view.summaries, samples: regionSamples },
                quorum,
              )
            : undefined;
        await writeRankingSnapshot(deps.pool, { network, window, region: view.region }, q?.scores ?? scores, {
          uptime,
          regressions,
          notes: view.notes,
          now: new Date(now),
          quorum: q?.verdicts,
        });
        snapshots++;
      }
    }
    timings.scoreMs += performance.now() - mark;
    for (const e of list) {
      const next = nextListingStatusByQuorum(e.status, regionSamples.get(e.id), quorum);
      if (next !== e.status) statusChanges.push({ id: e.id, status: next });
    }
  }
  await pruneEndpointFreshnessMinutes(deps.pool, { before: new Date(now - FRESHNESS_RETENTION_MS) });
  await pruneProbeRankRollups(deps.pool, {
    fiveMinBefore: new Date(now - FIVE_MIN_RETENTION_MS),
    hourBefore: new Date(now - HOUR_RETENTION_MS),
  });
  const changed = await setEndpointStatuses(deps.pool, statusChanges);
  return { networks: byNetwork.size, snapshots, endpoints: endpoints.length, statusChanges: changed, timings };
}
