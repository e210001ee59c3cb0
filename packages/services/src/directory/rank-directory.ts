import {
  ALL_REGIONS,
  getEndpointCapabilities,
  getProbeAvailability,
  getRankingOrder,
  listDirectoryEndpoints,
  listProbeSamples,
  replaceEndpointRankings,
  setEndpointStatuses,
  type DirectoryEndpoint,
  type EndpointRankingRow,
  type EndpointStatusValue,
  type ProbeSampleRow,
  type SqlPool,
} from "@rpcpulse/db";
import {
  computeNetworkHead,
  detectHeadRegressions,
  rankEndpoints,
  scoreEndpoint,
  SCORING,
  type CapabilityReport,
  type EndpointScore,
  type HeadObservation,
  type ScoreSample,
  type ScoreWindow,
} from "@rpcpulse/prober";

export const RANK_WINDOWS: readonly ScoreWindow[] = ["1h", "24h", "7d"];
/** Consecutive successful probes that take an endpoint from probation to active. */
export const ACTIVATE_AFTER_OK = 10;

export interface RankDirectoryOptions {
  now?: Date;
  /** Probes closer than this belong to one round (network head consensus per round). Default 30 s. */
  roundMs?: number;
  networks?: readonly string[];
}

export interface RankDirectoryReport {
  networks: number;
  snapshots: number;
  endpoints: number;
  statusChanges: number;
}

/** A probe as scoring sees it, with its lag against the network head of its round. */
function toScoreSample(p: ProbeSampleRow, lagBlocks: number | null): ScoreSample {
  const answered = p.httpStatus !== null;
  return {
    at: p.time.getTime(),
    ok: p.ok,
    answered,
    answeredError: answered && !p.ok && (p.errorClass === "rpc" || (p.httpStatus ?? 0) >= 400),
    rateLimited: p.rateLimited,
    ttfbMs: p.ok ? p.ttfbMs : null,
    lagBlocks: p.ok ? lagBlocks : null,
    region: p.region,
  };
}

/**
 * Lag of every probe against a consensus head computed per round (probes bucketed by `roundMs`):
 * the head is the top of the cluster of healthy endpoints agreeing, never the maximum reported.
 */
export function lagSamples(
  samples: readonly ProbeSampleRow[],
  blockIntervalMs: number,
  roundMs: number,
): Array<{ endpointId: string; sample: ScoreSample }> {
  const rounds = new Map<number, ProbeSampleRow[]>();
  for (const s of samples) {
    const key = Math.floor(s.time.getTime() / roundMs);
    const list = rounds.get(key) ?? [];
    list.push(s);
    rounds.set(key, list);
  }
  const out: Array<{ endpointId: string; sample: ScoreSample }> = [];
  for (const [key, list] of rounds) {
    const observations: HeadObservation[] = list.map((s) => ({
      endpointId: s.endpointId,
      ok: s.ok,
      headBlock: s.headBlock,
      headTime: s.headTime?.getTime() ?? null,
      observedAt: s.time.getTime(),
    }));
    const healthy = new Set(list.filter((s) => s.ok && s.headBlock !== null).map((s) => s.endpointId)).size;
    const head = computeNetworkHead(observations, {
      now: (key + 1) * roundMs,
      blockIntervalMs,
      // Two agreeing endpoints when there are enough to disagree; one otherwise (stale/future heads are still excluded).
      minAgreeing: healthy >= 3 ? 2 : 1,
    });
    const lagOf = new Map(head.lags.map((l) => [l.endpointId, l.lagBlocks]));
    for (const s of list)
      out.push({ endpointId: s.endpointId, sample: toScoreSample(s, lagOf.get(s.endpointId) ?? null) });
  }
  return out.sort((a, b) => a.sample.at - b.sample.at);
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
      consecutiveFailures: score.consecutiveFailures,
      lastOkAt: score.lastOkAt === null ? null : new Date(score.lastOkAt).toISOString(),
      ...extra,
    },
  };
}

/**
 * The ranking job: per network, lag against the consensus head, head regressions, scores per window
 * and region, ranking with hysteresis against the stored order, one snapshot per (window, region)
 * replaced atomically, and listing status transitions (probation -> active -> dead, never dropped).
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
    const rows = await listProbeSamples(deps.pool, {
      endpointIds: ids,
      since: new Date(now.getTime() - SCORING.windows["7d"]),
      until: new Date(now.getTime() + 1),
    });
    const samples = lagSamples(rows, blockIntervalMs, roundMs);
    const samplesOf = new Map<string, ScoreSample[]>(ids.map((id) => [id, []]));
    for (const s of samples) samplesOf.get(s.endpointId)?.push(s.sample);
    const caps = await getEndpointCapabilities(deps.pool, ids);
    const d30 = await getProbeAvailability(deps.pool, {
      endpointIds: ids,
      from: new Date(now.getTime() - 30 * 86_400_000),
      to: new Date(now.getTime() + 1),
    });
    const regions = [ALL_REGIONS, ...new Set(rows.map((r) => r.region))];

    // Uptime (point availability) per endpoint, for every snapshot row.
    const uptime = new Map<string, { h24: number | null; d7: number | null; d30: number | null }>();
    for (const id of ids) {
      const all = samplesOf.get(id) ?? [];
      const share = (ms: number) => {
        const w = all.filter((s) => s.at > now.getTime() - ms);
        return w.length ? w.filter((s) => s.ok).length / w.length : null;
      };
      const a30 = d30.get(id);
      uptime.set(id, {
        h24: share(86_400_000),
        d7: share(SCORING.windows["7d"]),
        d30: a30 && a30.probes ? a30.ok / a30.probes : null,
      });
    }

    for (const window of RANK_WINDOWS) {
      const windowStart = now.getTime() - SCORING.windows[window];
      const inWindow = rows.filter((r) => r.time.getTime() > windowStart);
      const regressions = new Map(
        detectHeadRegressions(
          inWindow.map((r) => ({
            endpointId: r.endpointId,
            ok: r.ok,
            headBlock: r.headBlock,
            headTime: r.headTime?.getTime() ?? null,
            observedAt: r.time.getTime(),
          })),
        ).perEndpoint.map((p) => [p.endpointId, p.regressions]),
      );
      for (const region of regions) {
        const scores = ids.map((id) =>
          scoreEndpoint({
            endpointId: id,
            samples: (samplesOf.get(id) ?? []).filter((s) => region === ALL_REGIONS || s.region === region),
            capabilities: asReport(caps.get(id)?.report),
            now: now.getTime(),
            window,
            blockIntervalMs,
          }),
        );
        const key = { network, window, region };
        const ranked = rankEndpoints(await getRankingOrder(deps.pool, key), scores);
        const scoreOf = new Map(scores.map((s) => [s.endpointId, s]));
        const snapshot = ranked.map((r) => {
          const score = scoreOf.get(r.endpointId) as EndpointScore;
          return toRow(score, r.rank, regressions.get(r.endpointId) ?? 0, {
            uptime: uptime.get(r.endpointId),
            moved: r.moved,
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
      const next = nextListingStatus(e.status, samplesOf.get(e.id) ?? []);
      if (next !== e.status) statusChanges.push({ id: e.id, status: next });
    }
  }
  const changed = await setEndpointStatuses(deps.pool, statusChanges);
  return { networks: byNetwork.size, snapshots, endpoints: endpoints.length, statusChanges: changed };
}
