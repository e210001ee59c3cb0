/**
 * Multi-region quorum: how the probes of several server regions are combined into one overall
 * verdict (ranking status, listing status, an endpoint's vote for the consensus head).
 *
 * - A region *reports* an endpoint while its newest probe of it is at most REGION_REPORTING_ROUNDS
 *   rounds older than the newest probe of it from any region (a region whose workers stopped drops out).
 * - The quorum is more than `share` of the reporting regions (at least one, at most all of them):
 *   share 0.5 (the default) is a strict majority, so with two regions both must agree, with three two.
 * - A verdict needs the quorum; without one (a split) the endpoint is "degraded" overall, its
 *   listing status stays as it is, and it does not vote for the network head.
 */
import type { EndpointStatusValue } from "@rpcpulse/db/directory";
import type { EndpointStatus, ScoreSample } from "@rpcpulse/prober";
import { nextListingStatus } from "./rank-shared.js";

/** Default share of the reporting regions that a verdict needs more than (DIRECTORY_REGION_QUORUM_SHARE). */
export const DEFAULT_REGION_QUORUM_SHARE = 0.5;
/** A region reports an endpoint while its newest probe is within this many rounds of the newest one. */
export const REGION_REPORTING_ROUNDS = 3;

export interface RegionQuorumSettings {
  /** A verdict needs more than this share of the reporting regions (0 = any one region, 0.5 = majority). */
  share: number;
  /** Probe round period: the reporting horizon is REGION_REPORTING_ROUNDS of it. */
  roundMs: number;
}

/** Regions that must agree among `reporting` ones: floor(reporting × share) + 1, capped to `reporting`. */
export function regionQuorum(reporting: number, share: number = DEFAULT_REGION_QUORUM_SHARE): number {
  if (reporting <= 0) return 0;
  const s = Math.min(Math.max(share, 0), 0.999);
  return Math.min(reporting, Math.floor(reporting * s) + 1);
}

/** Of per-region newest-probe times, the regions that still report (see REGION_REPORTING_ROUNDS). */
export function selectReportingRegions(newestByRegion: ReadonlyMap<string, number>, roundMs: number): string[] {
  const newest = Math.max(...newestByRegion.values());
  const horizon = REGION_REPORTING_ROUNDS * roundMs;
  return [...newestByRegion]
    .filter(([, at]) => at >= newest - horizon)
    .map(([region]) => region)
    .sort();
}

/** Best first; probation (too few probes) ranks above dead. */
const STATUS_ORDER: readonly EndpointStatus[] = ["healthy", "degraded", "lagging", "stale", "probation", "dead"];

export interface RegionVerdict {
  status: EndpointStatus;
  /** Regions whose probes counted, with the status each one's own probes give. */
  regions: Record<string, EndpointStatus>;
  /** Reporting regions that had to agree. */
  quorum: number;
  /** Neither "reachable" nor "dead" had the quorum: the regions disagree. */
  split: boolean;
  /** Regions that stopped reporting (left out). */
  silent: string[];
}

/**
 * The overall status from each reporting region's own status: dead when a quorum of regions sees it
 * dead; otherwise, when a quorum reaches it, the best status a quorum of regions reaches or betters
 * (the quorum-th best); otherwise (a split) degraded.
 */
export function combineRegionStatuses(regions: ReadonlyMap<string, EndpointStatus>, share: number): RegionVerdict {
  const statuses = Object.fromEntries([...regions].sort(([a], [b]) => a.localeCompare(b)));
  const quorum = regionQuorum(regions.size, share);
  const ranked = [...regions.values()].sort((a, b) => STATUS_ORDER.indexOf(a) - STATUS_ORDER.indexOf(b));
  const dead = ranked.filter((s) => s === "dead").length;
  const base = { regions: statuses, quorum, silent: [] };
  if (dead >= quorum) return { ...base, status: "dead", split: false };
  if (ranked.length - dead >= quorum) return { ...base, status: ranked[quorum - 1] ?? "degraded", split: false };
  return { ...base, status: "degraded", split: true };
}

/** Server probes of one endpoint, by region (oldest first), with the newest probe time of each. */
export type RegionSamples = ReadonlyMap<string, readonly ScoreSample[]>;

/** The reporting regions' samples of one endpoint (regions with no sample left out). */
export function reportingSamples(byRegion: RegionSamples | undefined, roundMs: number): Map<string, ScoreSample[]> {
  const newest = new Map<string, number>();
  for (const [region, samples] of byRegion ?? []) {
    const last = samples.at(-1);
    if (last) newest.set(region, last.at);
  }
  if (newest.size === 0) return new Map();
  const reporting = selectReportingRegions(newest, roundMs);
  return new Map(reporting.map((r) => [r, [...(byRegion?.get(r) ?? [])]]));
}

/** Listing statuses from most to least cautious (a tie between them goes to the first). */
const LISTING_ORDER: readonly EndpointStatusValue[] = ["dead", "probation", "active"];

/**
 * Listing status (probation / active / dead) under the quorum: each reporting region computes the
 * next status from its own probe sequence; a change needs a quorum of regions voting for it,
 * otherwise the current status stays. One reporting region decides alone (as before regions).
 */
export function nextListingStatusByQuorum(
  current: EndpointStatusValue,
  byRegion: RegionSamples | undefined,
  settings: RegionQuorumSettings,
): EndpointStatusValue {
  const reporting = reportingSamples(byRegion, settings.roundMs);
  if (reporting.size === 0) return nextListingStatus(current, []);
  const votes = new Map<EndpointStatusValue, number>();
  for (const samples of reporting.values()) {
    const next = nextListingStatus(current, samples);
    votes.set(next, (votes.get(next) ?? 0) + 1);
  }
  const quorum = regionQuorum(reporting.size, settings.share);
  let best: EndpointStatusValue | null = null;
  for (const status of LISTING_ORDER) {
    const n = votes.get(status) ?? 0;
    if (status === current || n < quorum) continue;
    if (best === null || n > (votes.get(best) ?? 0)) best = status;
  }
  return best ?? current;
}
