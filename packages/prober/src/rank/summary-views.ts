import { defaultAgreeBlocks } from "@rpcpulse/domain";
import { SCORING } from "./methodology.js";
import { emptySummary, lagQuantile, mergeSummary, ttfbQuantile, type ProbeSummary } from "./probe-summary.js";
import type { ScoreSample } from "./score.js";
import {
  agentSampleCap,
  discountOutliers,
  type Figures,
  type VantageNotes,
  type VantageRules,
} from "./vantage-views.js";

/** One vantage point's probes of one endpoint over a window, summarised, with its recent raw probes. */
export interface VantageSummary {
  endpointId: string;
  region: string;
  vantagePointId: string;
  kind: "server" | "agent";
  organizationId: string | null;
  summary: ProbeSummary;
  /** Raw probes at the recent end of the window (sequence rules). */
  recent: readonly ScoreSample[];
}

export interface SummaryView {
  /** "all" for the overall view, else the region. */
  region: string;
  /** Endpoint → region of the probes → summary (latency per region; the sum is the view). */
  summaries: Map<string, Map<string, ProbeSummary>>;
  recent: Map<string, ScoreSample[]>;
  notes: Map<string, VantageNotes>;
}

interface Source {
  key: string;
  kind: "server" | "agent";
  vantagePointIds: Set<string>;
  summary: ProbeSummary;
  recent: ScoreSample[];
}

function emptyNotes(): VantageNotes {
  return { sources: 0, servers: 0, agents: 0, ownExcluded: 0, agentIgnored: 0, discounted: [], capped: [] };
}

function figuresOf(s: ProbeSummary): Figures {
  return { availability: s.probes ? s.ok / s.probes : 0, p50: ttfbQuantile(s, 0.5), lag: lagQuantile(s, 0.5) };
}

function sourceKey(s: VantageSummary): string {
  if (s.kind === "server") return `server:${s.vantagePointId}`;
  return s.organizationId ? `org:${s.organizationId}` : `agent:${s.vantagePointId}`;
}

/** weighRegion of vantage-views over summaries: own claims out, outliers discounted, agents capped by weight. */
function weighRegion(region: string, list: readonly VantageSummary[], claimant: string | null, lagTolerance: number) {
  const notes = emptyNotes();
  const sources = new Map<string, Source>();
  for (const s of list) {
    if (s.kind === "agent" && claimant !== null && s.organizationId === claimant) {
      notes.ownExcluded += s.summary.probes;
      continue;
    }
    const key = sourceKey(s);
    const src = sources.get(key) ?? {
      key,
      kind: s.kind,
      vantagePointIds: new Set(),
      summary: emptySummary(),
      recent: [],
    };
    src.vantagePointIds.add(s.vantagePointId);
    mergeSummary(src.summary, s.summary);
    src.recent.push(...s.recent);
    sources.set(key, src);
  }
  const rules = SCORING.vantage;
  const all = [...sources.values()].sort((a, b) => a.key.localeCompare(b.key));
  const kept = discountOutliers(
    all,
    (s) => (s.summary.probes >= rules.minSamples ? figuresOf(s.summary) : null),
    notes,
    lagTolerance,
  );
  const servers = kept.filter((s) => s.kind === "server");
  const agents = kept.filter((s) => s.kind === "agent");
  const serverCount = servers.reduce((n, s) => n + s.summary.probes, 0);
  const cap = agentSampleCap(
    serverCount,
    agents.map((a) => Math.round(a.summary.probes)),
    rules.maxAgentShare,
  );
  const total = emptySummary();
  const recent: ScoreSample[] = [];
  const add = (s: Source, scale: number) => {
    recent.push(...s.recent);
    mergeSummary(total, s.summary, scale);
  };
  for (const s of servers) add(s, 1);
  for (const a of agents) {
    const n = a.summary.probes;
    const scale = n > cap ? cap / n : 1;
    if (scale < 1) notes.capped.push({ vantagePointIds: [...a.vantagePointIds].sort(), kept: cap, of: Math.round(n) });
    add(a, scale);
  }
  notes.servers = servers.length;
  notes.agents = cap > 0 ? agents.length : 0;
  notes.sources = notes.servers + notes.agents;
  return { summaries: new Map([[region, total]]), recent: recent.sort((a, b) => a.at - b.at), notes };
}

/**
 * buildVantageViews for summaries (rollup ranking): the overall view from server vantage points only,
 * one view per region under the agent rules (own claims excluded, outliers discounted and flagged from
 * availability, histogram p50 and median lag, each agent source capped to maxAgentShare by weight).
 */
export function buildSummaryViews(sources: readonly VantageSummary[], rules: VantageRules): SummaryView[] {
  const overallRegion = rules.overallRegion ?? "all";
  const lagTolerance = Math.max(SCORING.vantage.outlier.lagBlocks, defaultAgreeBlocks(rules.blockIntervalMs));
  const byEndpoint = new Map<string, Map<string, VantageSummary[]>>();
  for (const s of sources) {
    const regions = byEndpoint.get(s.endpointId) ?? new Map<string, VantageSummary[]>();
    regions.set(s.region, [...(regions.get(s.region) ?? []), s]);
    byEndpoint.set(s.endpointId, regions);
  }
  const regionNames = [...new Set(sources.map((s) => s.region))].filter((r) => r !== overallRegion).sort();
  const overall: SummaryView = { region: overallRegion, summaries: new Map(), recent: new Map(), notes: new Map() };
  const views = new Map<string, SummaryView>(
    regionNames.map((region) => [region, { region, summaries: new Map(), recent: new Map(), notes: new Map() }]),
  );
  for (const id of [...byEndpoint.keys()].sort()) {
    const regions = byEndpoint.get(id) ?? new Map<string, VantageSummary[]>();
    const mine = [...regions.values()].flat();
    const servers = mine.filter((s) => s.kind === "server");
    const notes = emptyNotes();
    notes.servers = new Set(servers.map((s) => s.vantagePointId)).size;
    notes.sources = notes.servers;
    notes.agentIgnored = mine.filter((s) => s.kind !== "server").reduce((n, s) => n + s.summary.probes, 0);
    const byRegion = new Map<string, ProbeSummary>();
    for (const s of servers) {
      const into = byRegion.get(s.region) ?? emptySummary();
      byRegion.set(s.region, mergeSummary(into, s.summary));
    }
    overall.summaries.set(id, byRegion);
    overall.recent.set(
      id,
      servers.flatMap((s) => s.recent).sort((a, b) => a.at - b.at),
    );
    overall.notes.set(id, notes);
    for (const [region, list] of regions) {
      const view = views.get(region);
      if (!view) continue;
      const weighed = weighRegion(region, list, rules.claimants.get(id) ?? null, lagTolerance);
      view.summaries.set(id, weighed.summaries);
      view.recent.set(id, weighed.recent);
      view.notes.set(id, weighed.notes);
    }
  }
  return [overall, ...views.values()];
}
