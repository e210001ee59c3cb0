import { setImmediate } from "node:timers/promises";
import {
  ALL_REGIONS,
  getEndpointCapabilities,
  listDirectoryEndpoints,
  listRankingEndpointFacts,
  listRankingOrders,
  pruneEndpointFreshnessMinutes,
  pruneProbeRankRollups,
  withRankingWrite,
  setEndpointStatuses,
  upsertEndpointFreshnessMinutes,
  type ProbeRankSums,
  type DirectoryEndpoint,
  type EndpointStatusValue,
} from "@rpcpulse/db/directory";
import { type SqlPool } from "@rpcpulse/db/sql";
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
import { countFreshnessMinutes } from "./rank-samples.js";
import { DEFAULT_REGION_QUORUM_SHARE, nextListingStatusByQuorum } from "./region-quorum.js";
import {
  FIVE_MIN_MS,
  floorTo,
  HOUR_MS,
  planRollupPass,
  rollUpRankProbes,
  rollupCut,
  ROLLUP_REWRITE_MS,
  type MeasuredProbe,
} from "./rank-rollups.js";
import { sumWindowsAroundPass, windowParts } from "./rank-window-sums.js";
import {
  asReport,
  buildRankingSnapshot,
  FRESHNESS_RETENTION_MS,
  RANK_WINDOWS,
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

const DAY_MS = 86_400_000;
/** The 30-day uptime (server probes) is read from the same rollups as the windows. */
const UPTIME_30D_MS = 30 * DAY_MS;

/**
 * Server probes of the last 30 days per endpoint (probes, ok, ok but lagging or stale), from the
 * rollup sums plus the raw tail: the 30-day uptime, counted like the 24 h and 7 d ones.
 */
function serverUptime30d(
  sums: readonly ProbeRankSums[],
  now: number,
  watermark: number,
  recent: readonly MeasuredProbe[],
): Map<string, ProbeSummary> {
  const out = new Map<string, ProbeSummary>();
  const of = (id: string) => {
    let t = out.get(id);
    if (!t) out.set(id, (t = emptySummary()));
    return t;
  };
  for (const r of sums) if (r.kind === "server") mergeSummary(of(r.endpointId), r);
  for (const p of recent) {
    if (p.kind !== "server" || p.sample.at < watermark || p.sample.at > now) continue;
    addSample(of(p.endpointId), p.sample, p.flags);
  }
  return out;
}

/** One (endpoint, vantage point)'s recent probes, oldest first, with each probe's position in the pass. */
interface RecentGroup {
  probes: MeasuredProbe[];
  samples: MeasuredProbe["sample"][];
  positions: number[];
}

/** The recent probes per (endpoint, vantage point), sorted once per round and shared by every window. */
function groupRecent(recent: readonly MeasuredProbe[]): RecentGroup[] {
  const groups = new Map<string, RecentGroup>();
  for (let i = 0; i < recent.length; i++) {
    const p = recent[i] as MeasuredProbe;
    const key = `${p.endpointId}/${p.vantagePointId}`;
    const g = groups.get(key);
    if (g) {
      g.probes.push(p);
      g.samples.push(p.sample);
      g.positions.push(i);
    } else groups.set(key, { probes: [p], samples: [p.sample], positions: [i] });
  }
  // The pass reads probes in time order, so a group is normally sorted already (a stable sort keeps it).
  return [...groups.values()].map((g) => {
    if (inTimeOrder(g.probes)) return g;
    const order = g.probes
      .map((_, i) => i)
      .sort((x, y) => (g.probes[x]?.sample.at ?? 0) - (g.probes[y]?.sample.at ?? 0));
    const probes = order.map((i) => g.probes[i] as MeasuredProbe);
    return { probes, samples: probes.map((p) => p.sample), positions: order.map((i) => g.positions[i] as number) };
  });
}

function inTimeOrder(probes: readonly MeasuredProbe[]): boolean {
  for (let i = 1; i < probes.length; i++) {
    if ((probes[i] as MeasuredProbe).sample.at < (probes[i - 1] as MeasuredProbe).sample.at) return false;
  }
  return true;
}

/** First index of `probes` (oldest first) whose time is above `t`. */
function firstAfter(probes: readonly MeasuredProbe[], t: number): number {
  let lo = 0;
  let hi = probes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((probes[mid] as MeasuredProbe).sample.at > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The window's sources: rollup sums per (endpoint, vantage point) plus the raw tail, with recent probes
 * (the group's sorted array itself when the whole group is inside the window, else a slice of it).
 */
function windowSources(
  sums: readonly ProbeRankSums[],
  start: number,
  now: number,
  watermark: number,
  groups: readonly RecentGroup[],
): VantageSummary[] {
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
  // Sources first seen through a raw probe are added in the order of the pass (as probe by probe).
  const inWindow: Array<{ g: RecentGroup; lo: number; hi: number; first: number }> = [];
  for (const g of groups) {
    const lo = firstAfter(g.probes, start);
    const hi = firstAfter(g.probes, now);
    if (lo >= hi) continue;
    let first = Infinity;
    for (let i = lo; i < hi; i++) first = Math.min(first, g.positions[i] as number);
    inWindow.push({ g, lo, hi, first });
  }
  inWindow.sort((x, y) => x.first - y.first);
  for (const { g, lo, hi } of inWindow) {
    const p = g.probes[lo] as MeasuredProbe;
    const src = sourceOf(p.endpointId, p.vantagePointId, () => ({
      region: p.region,
      kind: p.kind,
      organizationId: p.organizationId,
      summary: emptySummary(),
      recent: [],
    }));
    src.recent = lo === 0 && hi === g.samples.length ? g.samples : g.samples.slice(lo, hi);
    for (let i = hi - 1; i >= lo; i--) {
      const q = g.probes[i] as MeasuredProbe;
      if (q.sample.at < watermark) break;
      addSample(src.summary, q.sample, q.flags);
    }
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
  for (const e of endpoints) {
    const list = byNetwork.get(e.network);
    if (list) list.push(e);
    else byNetwork.set(e.network, [e]);
  }

  let snapshots = 0;
  const timings = { rollupMs: 0, windowsMs: 0, scoreMs: 0 };
  const statusChanges: Array<{ id: string; status: EndpointStatusValue }> = [];
  for (const [network, list] of byNetwork) {
    const ids = list.map((e) => e.id);
    const blockIntervalMs = list[0]?.blockIntervalMs ?? 3_000;
    const limits = freshnessLimits(blockIntervalMs);
    const [facts, caps] = await Promise.all([
      listRankingEndpointFacts(deps.pool, ids),
      getEndpointCapabilities(deps.pool, ids),
    ]);
    const claimants = new Map(ids.map((id) => [id, facts.get(id)?.claimantOrganizationId ?? null]));
    const networkId = facts.get(ids[0] ?? "")?.networkId;
    let mark = performance.now();
    const plan = await planRollupPass(deps.pool, ids, now);
    // Every window's rollup sums (and the 30-day uptime's): the settled rows beside the rollup pass.
    const spans = [...RANK_WINDOWS.map((w) => SCORING.windows[w]), UPTIME_30D_MS];
    const parts = spans.map((ms) => windowParts(ms, now, plan.watermark));
    const windowSums = sumWindowsAroundPass(deps.pool, ids, parts, spans, rollupCut(plan));
    const pass = await rollUpRankProbes(
      deps.pool,
      { endpointIds: ids, networkId, claimants, blockIntervalMs, limits, roundMs, now },
      plan,
    );

    const uptime = new Map<string, { uptime: Uptime; lagging: Uptime }>();
    // An endpoint's server probes in the pass's order: the rollup pass classified their freshness together.
    const serverRecent = new Map<string, MeasuredProbe[]>();
    for (const p of pass.recent) {
      if (p.kind !== "server") continue;
      const list = serverRecent.get(p.endpointId);
      if (list) list.push(p);
      else serverRecent.set(p.endpointId, [p]);
    }
    const regionSamples = groupServerSamplesByRegion(pass.recent);
    const freshFrom = floorTo(now - ROLLUP_REWRITE_MS, FIVE_MIN_MS);
    await upsertEndpointFreshnessMinutes(
      deps.pool,
      ids.flatMap((id) => {
        const probes = serverRecent.get(id) ?? [];
        const samples = probes.map((p) => p.sample);
        return countFreshnessMinutes(id, samples, (i) => probes[i]?.flags, freshFrom);
      }),
    );

    timings.rollupMs += performance.now() - mark;
    mark = performance.now();
    const sums = await windowSums.rest();
    const d30 = serverUptime30d(sums[RANK_WINDOWS.length] ?? [], now, pass.watermark, pass.recent);
    const viewsOf = new Map<ScoreWindow, SummaryView[]>();
    const groups = groupRecent(pass.recent);
    const viewsFor = (window: ScoreWindow): SummaryView[] => {
      let views = viewsOf.get(window);
      if (!views) {
        const i = RANK_WINDOWS.indexOf(window);
        const sources = windowSources(sums[i] ?? [], parts[i]!.start, now, pass.watermark, groups);
        views = buildSummaryViews(sources, { blockIntervalMs, claimants, overallRegion: ALL_REGIONS });
        viewsOf.set(window, views);
      }
      return views;
    };
    // The uptime every snapshot carries needs the 24 h and 7 d views; the others are built while the
    // database writes the first snapshots.
    for (const id of ids) {
      const [h24, d7] = (["24h", "7d"] as const).map((w) => totalOf(viewsFor(w)[0]?.summaries.get(id)));
      const a30 = d30.get(id);
      const share = (t: ProbeSummary | undefined, n: (t: ProbeSummary) => number) =>
        t && t.probes ? n(t) / t.probes : null;
      const up = (t: ProbeSummary) => t.ok - t.lagging;
      const lagging = (t: ProbeSummary) => t.lagging;
      uptime.set(id, {
        uptime: { h24: share(h24, up), d7: share(d7, up), d30: share(a30, up) },
        lagging: { h24: share(h24, lagging), d7: share(d7, lagging), d30: share(a30, lagging) },
      });
    }
    timings.windowsMs += performance.now() - mark;
    mark = performance.now();

    const orders = await listRankingOrders(deps.pool, network);
    // Every snapshot of the network in one transaction (readers see the whole previous round or this
    // one), each queued as soon as it is scored so the database writes it while the next is scored.
    const client = await deps.pool.connect();
    try {
      await withRankingWrite(client, new Date(now), async (writer) => {
        // Windows whose views the uptime already built first; the others are built while those are written.
        const built = (w: ScoreWindow) => (viewsOf.has(w) ? 0 : 1);
        for (const window of [...RANK_WINDOWS].sort((a, b) => built(a) - built(b))) {
          const views = viewsFor(window);
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
                    {
                      window,
                      now,
                      blockIntervalMs,
                      freshness: limits,
                      summaries: view.summaries,
                      samples: regionSamples,
                    },
                    quorum,
                  )
                : undefined;
            const key = { network, window, region: view.region };
            const rows = buildRankingSnapshot(orders.get(`${window}/${view.region}`) ?? [], q?.scores ?? scores, {
              uptime,
              regressions,
              notes: view.notes,
              now: new Date(now),
              quorum: q?.verdicts,
            });
            writer.add(key, rows);
            snapshots++;
            // Lets the session send the queued statements before the next view is scored.
            await setImmediate();
          }
        }
      });
    } finally {
      client.release();
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
