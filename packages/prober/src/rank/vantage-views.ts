import { defaultAgreeBlocks } from "@rpcpulse/domain";
import { SCORING } from "./methodology.js";
import type { ScoreSample } from "./score.js";
import { quantile } from "./stats.js";

/** One probe with who took it. */
export interface VantageSample {
  endpointId: string;
  region: string;
  vantagePointId: string;
  kind: "server" | "agent";
  /** Organization of an agent vantage point (null for server ones, or an agent without a node). */
  organizationId: string | null;
  sample: ScoreSample;
}

export type VantageFlagReason = "availability" | "latency" | "lag";

/** An agent vantage point (one organization's, in one region) discounted for one endpoint. */
export interface VantageFlag {
  vantagePointIds: string[];
  reason: VantageFlagReason;
  /** Its figure (availability 0..1, p50 ms, median lag blocks) and the median of the others. */
  value: number;
  median: number;
}

/** How the samples of one endpoint in one view were weighed. */
export interface VantageNotes {
  /** Independent sources that contributed (server vantage points; agent organizations). */
  sources: number;
  servers: number;
  agents: number;
  /** Agent samples left out because the probing organization claims the endpoint. */
  ownExcluded: number;
  /** Agent samples not used by the overall view (agents never move it). */
  agentIgnored: number;
  discounted: VantageFlag[];
  capped: Array<{ vantagePointIds: string[]; kept: number; of: number }>;
}

export interface VantageView {
  /** "all" for the overall view, else the region. */
  region: string;
  samples: Map<string, ScoreSample[]>;
  notes: Map<string, VantageNotes>;
}

export interface VantageRules {
  blockIntervalMs: number;
  /** Endpoint id → organization holding a verified claim on it. */
  claimants: ReadonlyMap<string, string | null>;
  /** Name of the overall view. Default "all". */
  overallRegion?: string;
}

interface Source {
  key: string;
  kind: "server" | "agent";
  vantagePointIds: Set<string>;
  samples: ScoreSample[];
}

export interface Figures {
  availability: number;
  p50: number | null;
  lag: number | null;
}

function figuresOf(samples: readonly ScoreSample[]): Figures {
  const ok = samples.filter((s) => s.ok);
  return {
    availability: samples.length ? ok.length / samples.length : 0,
    p50: quantile(
      ok.map((s) => s.ttfbMs).filter((v): v is number => v !== null),
      0.5,
    ),
    lag: quantile(
      ok.map((s) => s.lagBlocks).filter((v): v is number => v !== null),
      0.5,
    ),
  };
}

function median(values: readonly (number | null)[]): number | null {
  return quantile(
    values.filter((v): v is number => v !== null),
    0.5,
  );
}

/** Why an agent source disagrees with the median of the others (empty: it agrees). */
export function disagreements(mine: Figures, others: readonly Figures[], lagTolerance: number): VantageFlag[] {
  const o = SCORING.vantage.outlier;
  const flags: VantageFlag[] = [];
  const flag = (reason: VantageFlagReason, value: number, med: number) =>
    flags.push({ vantagePointIds: [], reason, value, median: med });
  const a = median(others.map((f) => f.availability));
  if (a !== null && Math.abs(mine.availability - a) > o.availability) flag("availability", mine.availability, a);
  const p = median(others.map((f) => f.p50));
  if (p !== null && mine.p50 !== null) {
    const ratio = Math.max(mine.p50, p) / Math.max(1, Math.min(mine.p50, p));
    if (ratio >= o.latencyRatio && Math.abs(mine.p50 - p) >= o.latencyMinMs) flag("latency", mine.p50, p);
  }
  const l = median(others.map((f) => f.lag));
  if (l !== null && mine.lag !== null && Math.abs(mine.lag - l) > lagTolerance) flag("lag", mine.lag, l);
  return flags;
}

/** A source of one region view: one server vantage point, or one organization's agents. */
export interface WeighedSource {
  key: string;
  kind: "server" | "agent";
  vantagePointIds: Set<string>;
}

/**
 * The sources kept after the outlier rule: an agent source whose figures disagree with the median of
 * at least minOthers other measured sources is left out and its flags noted. `figures` returns null
 * for a source with too few probes to compare.
 */
export function discountOutliers<S extends WeighedSource>(
  all: readonly S[],
  figures: (s: S) => Figures | null,
  notes: VantageNotes,
  lagTolerance: number,
): S[] {
  const measured = new Map<string, Figures>();
  for (const s of all) {
    const f = figures(s);
    if (f) measured.set(s.key, f);
  }
  const kept: S[] = [];
  for (const src of all) {
    const mine = measured.get(src.key);
    if (src.kind === "agent" && mine) {
      const others = [...measured].filter(([k]) => k !== src.key).map(([, f]) => f);
      if (others.length >= SCORING.vantage.minOthers) {
        const flags = disagreements(mine, others, lagTolerance);
        if (flags.length > 0) {
          const ids = [...src.vantagePointIds].sort();
          notes.discounted.push(...flags.map((f) => ({ ...f, vantagePointIds: ids })));
          continue;
        }
      }
    }
    kept.push(src);
  }
  return kept;
}

/** Time order with a total tie-break, so the result never depends on the input order. */
function compareSamples(a: ScoreSample, b: ScoreSample): number {
  return (
    a.at - b.at ||
    Number(a.ok) - Number(b.ok) ||
    (a.ttfbMs ?? -1) - (b.ttfbMs ?? -1) ||
    (a.lagBlocks ?? -1) - (b.lagBlocks ?? -1) ||
    (a.headBlock ?? -1) - (b.headBlock ?? -1)
  );
}

/** Evenly spaced `m` of `list` (kept in time order): thinning keeps the time coverage. */
function thin<T>(list: readonly T[], m: number): T[] {
  if (m >= list.length) return [...list];
  const out: T[] = [];
  for (let i = 0; i < m; i++) out.push(list[Math.floor((i * list.length) / m)] as T);
  return out;
}

/**
 * Most samples each agent source may keep: the largest T with T ≤ share × (server samples + Σ min(n, T)).
 * Without server samples, every source keeps as many as the smallest one has (they count equally).
 */
export function agentSampleCap(serverSamples: number, agentCounts: readonly number[], share: number): number {
  if (agentCounts.length === 0) return 0;
  if (serverSamples === 0) return Math.min(...agentCounts);
  for (let t = Math.max(...agentCounts); t > 0; t--) {
    const total = serverSamples + agentCounts.reduce((s, n) => s + Math.min(n, t), 0);
    if (t <= share * total) return t;
  }
  return 0;
}

function sourceKey(s: VantageSample): string {
  if (s.kind === "server") return `server:${s.vantagePointId}`;
  return s.organizationId ? `org:${s.organizationId}` : `agent:${s.vantagePointId}`;
}

function emptyNotes(): VantageNotes {
  return { sources: 0, servers: 0, agents: 0, ownExcluded: 0, agentIgnored: 0, discounted: [], capped: [] };
}

/** One endpoint's samples in one region view, after the agent rules. */
function weighRegion(list: readonly VantageSample[], claimant: string | null, lagTolerance: number) {
  const notes = emptyNotes();
  const sources = new Map<string, Source>();
  for (const s of list) {
    if (s.kind === "agent" && claimant !== null && s.organizationId === claimant) {
      notes.ownExcluded++;
      continue;
    }
    const key = sourceKey(s);
    const src = sources.get(key) ?? { key, kind: s.kind, vantagePointIds: new Set<string>(), samples: [] };
    src.vantagePointIds.add(s.vantagePointId);
    src.samples.push(s.sample);
    sources.set(key, src);
  }
  const rules = SCORING.vantage;
  const all = [...sources.values()].sort((a, b) => a.key.localeCompare(b.key));
  const kept = discountOutliers(
    all,
    (s) => (s.samples.length >= rules.minSamples ? figuresOf(s.samples) : null),
    notes,
    lagTolerance,
  );
  const servers = kept.filter((s) => s.kind === "server");
  const agents = kept.filter((s) => s.kind === "agent");
  const serverCount = servers.reduce((n, s) => n + s.samples.length, 0);
  const cap = agentSampleCap(
    serverCount,
    agents.map((a) => a.samples.length),
    rules.maxAgentShare,
  );
  const out: ScoreSample[] = servers.flatMap((s) => s.samples);
  for (const a of agents) {
    const sorted = [...a.samples].sort(compareSamples);
    const take = thin(sorted, cap);
    if (take.length < sorted.length)
      notes.capped.push({ vantagePointIds: [...a.vantagePointIds].sort(), kept: take.length, of: sorted.length });
    out.push(...take);
  }
  notes.servers = servers.length;
  notes.agents = cap > 0 ? agents.length : 0;
  notes.sources = notes.servers + notes.agents;
  return { samples: out.sort(compareSamples), notes };
}

/**
 * The overall view and one view per region, under the vantage rules (SCORING.vantage):
 *  - overall: server probes only (agents never move the overall ranking or the listing status);
 *  - region: the region's server probes plus its agents' probes, where an organization never scores an
 *    endpoint it claims, an agent source (an organization's vantage points in the region) that
 *    disagrees with the median of at least minOthers other sources is discounted and flagged, and each
 *    agent source is capped to maxAgentShare of the endpoint's samples (equal shares without servers).
 * Pure and independent of input order.
 */
export function buildVantageViews(samples: readonly VantageSample[], rules: VantageRules): VantageView[] {
  const overallRegion = rules.overallRegion ?? "all";
  const lagTolerance = Math.max(SCORING.vantage.outlier.lagBlocks, defaultAgreeBlocks(rules.blockIntervalMs));
  const byEndpoint = new Map<string, Map<string, VantageSample[]>>();
  for (const s of samples) {
    const regions = byEndpoint.get(s.endpointId) ?? new Map<string, VantageSample[]>();
    const list = regions.get(s.region) ?? [];
    list.push(s);
    regions.set(s.region, list);
    byEndpoint.set(s.endpointId, regions);
  }
  const endpoints = [...byEndpoint.keys()].sort();
  const regionNames = [...new Set(samples.map((s) => s.region))].filter((r) => r !== overallRegion).sort();
  const overall: VantageView = { region: overallRegion, samples: new Map(), notes: new Map() };
  const views = new Map<string, VantageView>(
    regionNames.map((region) => [region, { region, samples: new Map(), notes: new Map() }]),
  );
  for (const id of endpoints) {
    const regions = byEndpoint.get(id) ?? new Map<string, VantageSample[]>();
    const mine = [...regions.values()].flat();
    const servers = mine.filter((s) => s.kind === "server");
    const notes = emptyNotes();
    notes.servers = new Set(servers.map((s) => s.vantagePointId)).size;
    notes.sources = notes.servers;
    notes.agentIgnored = mine.length - servers.length;
    overall.samples.set(id, servers.map((s) => s.sample).sort(compareSamples));
    overall.notes.set(id, notes);
    for (const [region, list] of regions) {
      const view = views.get(region);
      if (!view) continue;
      const weighed = weighRegion(list, rules.claimants.get(id) ?? null, lagTolerance);
      view.samples.set(id, weighed.samples);
      view.notes.set(id, weighed.notes);
    }
  }
  return [overall, ...views.values()];
}
