import {
  insertNetworkHead,
  listLatestNetworkHeads,
  listNetworkTimings,
  listRecentNodeHeads,
  MAX_NETWORK_HEAD_EVIDENCE,
  pruneNetworkHeads,
  type EndpointHeadInput,
  type NetworkHeadEvidence,
  type NodeHeadInput,
} from "@rpcpulse/db/ingest";
import { listEndpointRegionHeadInputs } from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  computeConsensusHead,
  findNetwork,
  observationAnchor,
  plausibleHeadCeiling,
  projectHead,
  type ConsensusHead,
  type HeadObservation,
} from "@rpcpulse/domain";
import { DEFAULT_REGION_QUORUM_SHARE } from "../directory/region-quorum.js";
import { selectRegionHeadVotes } from "./region-head-votes.js";

/** Probes older than this do not vote (the probe round runs every 30 s by default). */
export const CONSENSUS_OBSERVATION_WINDOW_MS = 5 * 60_000;
/** Node heads older than this do not vote in the fallback. */
const NODE_WINDOW_MS = 60_000;
/** Decisions are kept this long (Grafana's consensus history; lag is stored with each sample). */
export const NETWORK_HEAD_RETENTION_MS = 30 * 86_400_000;
/** The previous decision bounds growth only while it is this recent. */
const PREVIOUS_WINDOW_MS = 10 * 60_000;

export interface DecideNetworkHeadsReport {
  networks: number;
  decided: number;
  /** Networks decided from organizations' nodes because fewer than two directory sources counted. */
  fromOrganizations: number;
  /** Decisions older than the retention removed by this run. */
  pruned: number;
}

/** The probe round period assumed when the caller does not say (the worker's default PROBE_INTERVAL_MS). */
const DEFAULT_ROUND_MS = 30_000;

/** Several server regions: an endpoint votes when a quorum of its reporting regions reaches it (region-head-votes.ts). */
export interface RegionQuorumOptions {
  /** Default 0.5: a strict majority of the reporting regions. */
  regionQuorumShare?: number;
  /** The probe round period (a region reports while within 3 rounds of the newest probe); default 30 s. */
  roundMs?: number;
}

/** A directory endpoint votes as itself, or as its claimant organization (one operator, one vote). */
function endpointObservation(e: EndpointHeadInput): HeadObservation {
  return {
    source: e.claimantOrganizationId ? `org:${e.claimantOrganizationId}` : `endpoint:${e.endpointId}`,
    headBlock: e.headBlock,
    headTimeMs: e.headTime?.getTime() ?? null,
    observedAtMs: e.observedAt.getTime(),
  };
}

/** An organization votes once, with its most advanced node (projected to `at`). */
function organizationObservations(heads: readonly NodeHeadInput[], interval: number, at: number): HeadObservation[] {
  const best = new Map<string, { projected: number; o: HeadObservation }>();
  for (const h of heads) {
    const o: HeadObservation = {
      source: `org:${h.organizationId}`,
      headBlock: h.headBlock,
      headTimeMs: h.headTime?.getTime() ?? null,
      observedAtMs: h.time.getTime(),
    };
    const projected = projectHead(observationAnchor(o, interval), at, interval);
    const prev = best.get(o.source);
    if (!prev || projected > prev.projected) best.set(o.source, { projected, o });
  }
  return [...best.values()].map((b) => b.o);
}

function toEvidence(decision: ConsensusHead): NetworkHeadEvidence[] {
  return decision.sources
    .map((s) => ({
      source: s.source,
      kind: s.source.startsWith("org:") ? ("organization" as const) : ("endpoint" as const),
      projectedHead: s.projectedHead,
      excluded: s.excluded,
      agrees: s.agrees,
      ahead: s.ahead,
    }))
    .sort((a, b) => (b.projectedHead ?? -1) - (a.projectedHead ?? -1))
    .slice(0, MAX_NETWORK_HEAD_EVIDENCE);
}

export interface NetworkDecision {
  networkId: string;
  networkSlug: string;
  blockIntervalMs: number;
  decision: ConsensusHead;
  /** The head came from organizations' nodes (fewer than two directory sources counted). */
  fromOrganizations: boolean;
}

/**
 * The consensus head of every network (or one, by slug) at `at`, from independent sources. Sources are
 * the listed directory endpoints the worker itself probed, each voting once with what a quorum of the
 * server regions that report it sees (region-head-votes.ts) (a claimed endpoint votes as its
 * organization). Only when fewer than two of them count do organizations vote with their nodes, each
 * organization once, so a head still needs two independent parties and no single tenant can move it.
 * The previous stored decision bounds growth; the chain's plausible ceiling refuses absurd heads.
 */
export async function computeNetworkDecisions(
  sql: SqlClient,
  params: { at: number; networkSlug?: string } & RegionQuorumOptions,
): Promise<NetworkDecision[]> {
  const at = params.at;
  const quorum = {
    share: params.regionQuorumShare ?? DEFAULT_REGION_QUORUM_SHARE,
    roundMs: params.roundMs ?? DEFAULT_ROUND_MS,
  };
  const [allNetworks, endpoints, nodeHeads, previous] = await Promise.all([
    listNetworkTimings(sql),
    listEndpointRegionHeadInputs(sql, { since: new Date(at - CONSENSUS_OBSERVATION_WINDOW_MS) }),
    listRecentNodeHeads(sql, { since: new Date(at - NODE_WINDOW_MS) }),
    listLatestNetworkHeads(sql, { since: new Date(at - PREVIOUS_WINDOW_MS) }),
  ]);
  const networks = params.networkSlug ? allNetworks.filter((n) => n.slug === params.networkSlug) : allNetworks;
  return networks.map((network) => {
    const info = findNetwork(network.slug);
    const interval = network.blockIntervalMs;
    const last = previous.find((p) => p.networkId === network.id && p.time.getTime() <= at);
    const options = {
      at,
      blockIntervalMs: interval,
      previous: last ? { block: last.headBlock, anchorMs: last.anchorTime.getTime() } : null,
      ...(info ? { ceiling: plausibleHeadCeiling(info, at) } : {}),
    };
    const endpointVotes = selectRegionHeadVotes(
      endpoints.filter((e) => e.networkId === network.id),
      { at, blockIntervalMs: interval, ...quorum },
    ).map(endpointObservation);
    const decision = computeConsensusHead(endpointVotes, options);
    const base = { networkId: network.id, networkSlug: network.slug, blockIntervalMs: interval };
    if (decision.head !== null) return { ...base, decision, fromOrganizations: false };
    const orgVotes = organizationObservations(
      nodeHeads.filter((h) => h.networkId === network.id),
      interval,
      at,
    ).filter((o) => !endpointVotes.some((e) => e.source === o.source));
    if (orgVotes.length === 0) return { ...base, decision, fromOrganizations: false };
    const withOrgs = computeConsensusHead([...endpointVotes, ...orgVotes], options);
    return { ...base, decision: withOrgs, fromOrganizations: withOrgs.head !== null };
  });
}

/** The worker's consensus job: decide every network's head now and store it (network_heads). */
export async function decideNetworkHeads(
  deps: { sql: SqlClient },
  input: { now?: Date } & RegionQuorumOptions = {},
): Promise<DecideNetworkHeadsReport> {
  const at = (input.now ?? new Date()).getTime();
  const decisions = await computeNetworkDecisions(deps.sql, {
    at,
    ...(input.regionQuorumShare === undefined ? {} : { regionQuorumShare: input.regionQuorumShare }),
    ...(input.roundMs === undefined ? {} : { roundMs: input.roundMs }),
  });
  const pruned = await pruneNetworkHeads(deps.sql, { before: new Date(at - NETWORK_HEAD_RETENTION_MS) });
  const report: DecideNetworkHeadsReport = { networks: decisions.length, decided: 0, fromOrganizations: 0, pruned };
  for (const { networkId, decision, fromOrganizations } of decisions) {
    if (decision.head === null) continue;
    await insertNetworkHead(deps.sql, {
      networkId,
      time: new Date(at),
      anchorTime: new Date(decision.head.anchorMs),
      headBlock: decision.head.block,
      considered: decision.considered,
      agreeing: decision.agreeing,
      quorum: decision.quorum,
      evidence: toEvidence(decision),
    });
    report.decided++;
    if (fromOrganizations) report.fromOrganizations++;
  }
  return report;
}
