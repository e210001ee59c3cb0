/** What the rollup ranking (rank-directory.ts) and the raw reference (rank-directory-raw.ts) share. */
import {
  getRankingOrder,
  replaceEndpointRankings,
  type EndpointRankingRow,
  type EndpointStatusValue,
} from "@rpcpulse/db/directory";
import { listNetworkHeadHistory, type NetworkHeadRow } from "@rpcpulse/db/ingest";
import { type SqlPool } from "@rpcpulse/db/sql";
import {
  rankEndpoints,
  SCORING,
  type CapabilityReport,
  type EndpointScore,
  type ScoreSample,
  type ScoreWindow,
  type VantageNotes,
} from "@rpcpulse/prober";

export const RANK_WINDOWS: readonly ScoreWindow[] = ["1h", "24h", "7d"];
/** Consecutive successful probes that take an endpoint from probation to active. */
export const ACTIVATE_AFTER_OK = 10;
/** Each run rewrites the per-minute freshness of this recent span (endpoint_freshness_minutes)... */
export const FRESHNESS_REWRITE_MS = 30 * 60_000;
/** ...and drops minutes older than this. */
export const FRESHNESS_RETENTION_MS = 35 * 86_400_000;

export interface RankDirectoryOptions {
  now?: Date;
  /** Probes closer than this belong to one round (fallback consensus where no decision is stored). Default 30 s. */
  roundMs?: number;
  networks?: readonly string[];
  /** Overall status and listing status need more than this share of the reporting server regions (default 0.5). */
  regionQuorumShare?: number;
}

export interface RankDirectoryReport {
  networks: number;
  snapshots: number;
  endpoints: number;
  statusChanges: number;
  /** Where the time went, ms summed over networks (rollup ranking only): rollup pass, window sums, scoring and snapshots. */
  timings?: { rollupMs: number; windowsMs: number; scoreMs: number };
}

export function asReport(value: Record<string, unknown> | undefined): CapabilityReport | null {
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

/** Copies `from`'s own enumerable properties onto `into`, as a spread into an object literal does. */
function assignOwn(into: Record<string, unknown>, from: object): void {
  for (const key of Object.keys(from)) into[key] = (from as Record<string, unknown>)[key];
}

export function toRow(
  score: EndpointScore,
  rank: number,
  regressions: number,
  extra: Record<string, unknown>,
): EndpointRankingRow {
  // The components as `{ ...score.components, <own figures>, ...extra }` would give, built by assignment:
  // a literal with two spreads around twenty keys cost ~40 µs per row (1.3 s of 36,000 rows a round).
  const components: Record<string, unknown> = {};
  assignOwn(components, score.components);
  components.availabilityLower = score.availability.lower;
  components.errorRate = score.errorRate;
  components.rateLimitedRate = score.rateLimitedRate;
  components.capabilityScore = score.capabilityScore;
  components.latencyByRegion = score.latency.byRegion;
  components.lagP95Blocks = score.lag.p95Blocks;
  components.lagMeanSeconds = score.lag.meanSeconds;
  components.laggingShare = score.freshness.laggingShare;
  components.staleShare = score.freshness.staleShare;
  components.consecutiveFailures = score.consecutiveFailures;
  components.lastOkAt = score.lastOkAt === null ? null : new Date(score.lastOkAt).toISOString();
  assignOwn(components, extra);
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
    components,
  };
}

/** The vantage notes as stored with a snapshot row (components.vantage). */
export function storedNotes(notes: VantageNotes | undefined): Record<string, unknown> | null {
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
export async function loadDecisions(pool: SqlPool, networkId: string, since: number): Promise<NetworkHeadRow[]> {
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

export type Uptime = { h24: number | null; d7: number | null; d30: number | null };

export interface SnapshotExtra {
  uptime: ReadonlyMap<string, { uptime: Uptime; lagging: Uptime }>;
  regressions: ReadonlyMap<string, number>;
  notes: ReadonlyMap<string, VantageNotes>;
  now: Date;
  /** Overall view: each endpoint's region quorum verdict (region-quorum.ts), stored as components.regionQuorum. */
  quorum?: ReadonlyMap<string, unknown> | undefined;
}

/** Ranks one view's scores with hysteresis against the stored order: the snapshot rows to write. */
export function buildRankingSnapshot(
  previousOrder: readonly string[],
  scores: readonly EndpointScore[],
  extra: SnapshotExtra,
): EndpointRankingRow[] {
  const ranked = rankEndpoints(previousOrder, scores);
  const scoreOf = new Map(scores.map((s) => [s.endpointId, s]));
  return ranked.map((r) => {
    const score = scoreOf.get(r.endpointId) as EndpointScore;
    const u = extra.uptime.get(r.endpointId);
    const more: Record<string, unknown> = {
      uptime: u?.uptime,
      uptimeLagging: u?.lagging,
      moved: r.moved,
      vantage: storedNotes(extra.notes.get(r.endpointId)),
    };
    if (extra.quorum?.has(r.endpointId)) more.regionQuorum = extra.quorum.get(r.endpointId);
    return toRow(score, r.rank, extra.regressions.get(r.endpointId) ?? 0, more);
  });
}

/** Ranks one (network, window, region) view's scores with hysteresis and replaces its snapshot atomically. */
export async function writeRankingSnapshot(
  pool: SqlPool,
  key: { network: string; window: ScoreWindow; region: string },
  scores: readonly EndpointScore[],
  extra: SnapshotExtra,
): Promise<void> {
  const snapshot = buildRankingSnapshot(await getRankingOrder(pool, key), scores, extra);
  const client = await pool.connect();
  try {
    await replaceEndpointRankings(client, key, snapshot, extra.now);
  } finally {
    client.release();
  }
}
