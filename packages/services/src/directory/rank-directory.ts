import {
  ALL_REGIONS,
  getEndpointCapabilities,
  getProbeAvailability,
  getRankingOrder,
  listDirectoryEndpoints,
  listNetworkHeadHistory,
  listProbeSamples,
  listRankingEndpointFacts,
  pruneEndpointFreshnessMinutes,
  replaceEndpointRankings,
  setEndpointStatuses,
  upsertEndpointFreshnessMinutes,
  type DirectoryEndpoint,
  type EndpointFreshnessMinute,
  type EndpointRankingRow,
  type EndpointStatusValue,
  type NetworkHeadRow,
  type SqlPool,
} from "@rpcpulse/db";
import {
  buildVantageViews,
  detectHeadRegressions,
  freshnessLimits,
  rankEndpoints,
  scoreEndpoint,
  SCORING,
  type CapabilityReport,
  type EndpointScore,
  type ScoreSample,
  type ScoreWindow,
  type VantageNotes,
} from "@rpcpulse/prober";
import { buildRankSamples, freshnessMinutes, freshUptime, toStoredDecisions } from "./rank-samples.js";

export const RANK_WINDOWS: readonly ScoreWindow[] = ["1h", "24h", "7d"];
/** Consecutive successful probes that take an endpoint from probation to active. */
export const ACTIVATE_AFTER_OK = 10;
/** Each run rewrites the per-minute freshness of this recent span (endpoint_freshness_minutes)... */
const FRESHNESS_REWRITE_MS = 30 * 60_000;
/** ...and drops minutes older than this. */
const FRESHNESS_RETENTION_MS = 35 * 86_400_000;

export interface RankDirectoryOptions {
  now?: Date;
  /** Probes closer than this belong to one round (fallback consensus where no decision is stored). Default 30 s. */
  roundMs?: number;
  networks?: readonly string[];
}

export interface RankDirectoryReport {
  networks: number;
  snapshots: number;
  endpoints: number;
  statusChanges: number;
}

function asReport(value: Record<string, unknown> | undefined): CapabilityReport | null {
  if (!value || typeof value.websocket !== "object" || typeof value.cors !== "object") return null;
  return value as unknown as CapabilityReport;
}

function okStreak(samples: readonly ScoreSample[]): number {
  let n = 0;
  for (let i = samples.length - 1; i >= 0 && samples[i]?.ok; i--) n++;
  return n;
}

/** Listing status from the probe sequence: probation -> active after a clean streak; dead after sustained failure. */
export function nextListingStatus(current: EndpointStatusValue, samples: readonly ScoreSample[]): EndpointStatusValue {
  const failures = (() => {
    let n = 0;
    for (let i = samples.length - 1; i >= 0 && !samples[i]?.ok; i--) n++;
    return n;
  })();
  if (failures >= SCORING.status.deadAfterFailures) return "dead";
  const streak = okStreak(samples);
  if (current === "dead") return streak > 0 ? "probation" : "dead";
  if (current === "probation") return streak >= ACTIVATE_AFTER_OK ? "active" : "probation";
  return "active";
}

function toRow(
  score: EndpointScore,
  rank: number,
  regressions: number,
  extra: Record<string, unknown>,
): EndpointRankingRow {
  return {
    endpointId: score.endpointId,
    rank,
    score: Math.min(100, Math.max(0, score.score)),
    status: score.status,
    samples: score.samples,
    okSamples: score.okSamples,
    p50Ms: score.latency.p50,
    p95Ms: score.latency.p95,
    lagBlocks: score.lag.meanBlocks,
    availability: score.samples ? score.availability.point : null,
    headRegressions: regressions,
    components: {
      ...score.components,
      availabilityLower: score.availability.lower,
      errorRate: score.errorRate,
      rateLimitedRate: score.rateLimitedRate,
      capabilityScore: score.capabilityScore,
      latencyByRegion: score.latency.byRegion,
      lagP95Blocks: score.lag.p95Blocks,
      lagMeanSeconds: score.lag.meanSeconds,
      laggingShare: score.freshness.laggingShare,
      staleShare: score.freshness.staleShare,
      consecutiveFailures: score.consecutiveFailures,
      lastOkAt: score.lastOkAt === null ? null : new Date(score.lastOkAt).toISOString(),
      ...extra,
    },
  };
}

/** The vantage notes as stored with a snapshot row (components.vantage). */
function storedNotes(notes: VantageNotes | undefined): Record<string, unknown> | null {
  if (!notes) return null;
  return {
    sources: notes.sources,
    servers: notes.servers,
    agents: notes.agents,
    ownExcluded: notes.ownExcluded,
    agentIgnored: notes.agentIgnored,
    discounted: notes.discounted,
    capped: notes.capped,
  };
}

/** Every stored consensus decision of a network since `since`, oldest first, read in pages. */
async function loadDecisions(pool: SqlPool, networkId: string, since: number): Promise<NetworkHeadRow[]> {
  const page = 50_000;
  const out: NetworkHeadRow[] = [];
  let from = new Date(since);
  for (;;) {
    const rows = await listNetworkHeadHistory(pool, { since: from, networkId, limit: page });
    out.push(...rows);
    const last = rows.at(-1);
    if (rows.length < page || !last) return out;
    from = new Date(last.time.getTime() + 1);
  }
}

type Uptime = { h24: number | null; d7: number | null; d30: number | null };

/**
 * The ranking job: per network, each probe's lag against the consensus head at its own time, the
 * vantage rules (overall view from server probes only; per-region views where agents are capped,
 * outliers discounted and flagged, and an organization never scores what it claims), head regressions,
 * scores per window and view, ranking with hysteresis against the stored order, one snapshot per
 * (window, region) replaced atomically, and listing status transitions from server probes
 * (probation -> active -> dead, never dropped).
 */
export async function rankDirectory(
  deps: { pool: SqlPool },
  options: RankDirectoryOptions = {},
): Promise<RankDirectoryReport> {
  const now = options.now ?? new Date();
  const roundMs = options.roundMs ?? 30_000;
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
        const key = { network, window, region: view.region };
        const ranked = rankEndpoints(await getRankingOrder(deps.pool, key), scores);
        const scoreOf = new Map(scores.map((s) => [s.endpointId, s]));
        const snapshot = ranked.map((r) => {
          const score = scoreOf.get(r.endpointId) as EndpointScore;
          const u = uptime.get(r.endpointId);
          return toRow(score, r.rank, regressions.get(r.endpointId) ?? 0, {
            uptime: u?.uptime,
            uptimeLagging: u?.lagging,
            moved: r.moved,
            vantage: storedNotes(view.notes.get(r.endpointId)),
          });
        });
        const client = await deps.pool.connect();
        try {
          await replaceEndpointRankings(client, key, snapshot, now);
        } finally {
          client.release();
        }
        snapshots++;
      }
    }
    for (const e of list) {
      const next = nextListingStatus(e.status, overall.get(e.id) ?? []);
      if (next !== e.status) statusChanges.push({ id: e.id, status: next });
    }
  }
  await pruneEndpointFreshnessMinutes(deps.pool, { before: new Date(now.getTime() - FRESHNESS_RETENTION_MS) });
  const changed = await setEndpointStatuses(deps.pool, statusChanges);
  return { networks: byNetwork.size, snapshots, endpoints: endpoints.length, statusChanges: changed };
}
