/**
 * The consensus head of a network: the one block height RPC Pulse measures every lag against.
 *
 * Observations come from independent sources (a directory endpoint probed by the server, an
 * organization's nodes, …). Each is projected to a common time with the chain's block interval,
 * stale or implausible ones are set aside, and the head is the q-th highest projected head among
 * the sources, q = max(minSources, ⌈n/3⌉): fewer than q sources cannot raise it, lagging ones do
 * not pull it down. A head may not run ahead of the previous consensus by more than the elapsed
 * time allows (plus a tolerance). Pure: the worker stores what it decides (network_heads), ingest,
 * the fleet, alerts, status pages, the directory and Grafana read that.
 */

export interface HeadObservation {
  /** Independent source: "endpoint:<id>", "org:<id>". Observations of one source count once. */
  source: string;
  headBlock: number;
  /** Production time of the head block (ms), when the family reports it. */
  headTimeMs: number | null;
  /** When the head was read (ms, server clock). */
  observedAtMs: number;
}

export interface ConsensusAnchor {
  /** Consensus head block. */
  block: number;
  /** When that block was (estimated to be) produced, ms: project with `projectHead`. */
  anchorMs: number;
}

export interface ConsensusOptions {
  /** Time the consensus is decided for (ms). */
  at: number;
  blockIntervalMs: number;
  /** Fewest independent sources that decide a head. Default 2. */
  minSources?: number;
  /** Heads within this many blocks agree. Default max(2, blocks in 30 s). */
  agreeBlocks?: number;
  /** A head produced longer than this before it was read is stale. Default max(60 s, 20 blocks). */
  maxHeadAgeMs?: number;
  /** Observations older than this are ignored. Default 5 min. */
  maxObservationAgeMs?: number;
  /** A head time this far after the read is bogus (clock or chain). Default 30 s. */
  maxFutureSkewMs?: number;
  /** The previous consensus: no head may run ahead of it by more than the elapsed time allows. */
  previous?: ConsensusAnchor | null;
  /** Highest plausible block (checkPlausibleHead's ceiling); above it an observation is refused. */
  ceiling?: number;
}

export type HeadExclusion = "expired" | "stale" | "future" | "implausible" | "runaway";

export interface SourceVerdict {
  source: string;
  /** Head projected to `at`, or null when excluded before projection. */
  projectedHead: number | null;
  /** Why it did not count (null when it did). */
  excluded: HeadExclusion | null;
  /** Counted, and within agreeBlocks of the consensus. */
  agrees: boolean;
  /** Counted, and more than agreeBlocks above the consensus (a fork, a bogus head, or a faster source). */
  ahead: boolean;
}

export interface ConsensusHead {
  /** Consensus head at `at`, null without a quorum. */
  head: ConsensusAnchor | null;
  at: number;
  /** Sources that counted (after exclusions). */
  considered: number;
  /** Counted sources within agreeBlocks of the head. */
  agreeing: number;
  /** Sources needed: max(minSources, ⌈considered/3⌉). */
  quorum: number;
  sources: SourceVerdict[];
}

export function defaultAgreeBlocks(blockIntervalMs: number): number {
  return Math.max(2, Math.ceil(30_000 / blockIntervalMs));
}

export function defaultMaxHeadAgeMs(blockIntervalMs: number): number {
  return Math.max(60_000, 20 * blockIntervalMs);
}

/**
 * When the observed head block was produced, as well as we know: its own time when the family reports
 * it and the head was fresh (read within two intervals of it), else the read time (a lower bound: the
 * block existed then).
 */
export function anchorOf(o: HeadObservation, blockIntervalMs: number): number {
  if (o.headTimeMs === null) return o.observedAtMs;
  const age = o.observedAtMs - o.headTimeMs;
  if (age < 0) return o.observedAtMs;
  return age <= 2 * blockIntervalMs ? o.headTimeMs : o.observedAtMs;
}

/** The head an anchor predicts at `atMs`: one block per interval, forwards or backwards. */
export function projectHead(anchor: ConsensusAnchor, atMs: number, blockIntervalMs: number): number {
  return anchor.block + Math.floor((atMs - anchor.anchorMs) / blockIntervalMs);
}

/** An observation as an anchor (block and production time). */
export function observationAnchor(o: HeadObservation, blockIntervalMs: number): ConsensusAnchor {
  return { block: o.headBlock, anchorMs: anchorOf(o, blockIntervalMs) };
}

export function quorumFor(considered: number, minSources: number): number {
  return Math.max(minSources, Math.ceil(considered / 3));
}

interface Candidate {
  verdict: SourceVerdict;
  anchor: ConsensusAnchor;
  projected: number;
}

/** Latest observation per source, then the quorum head (see the module comment). */
export function computeConsensusHead(
  observations: readonly HeadObservation[],
  options: ConsensusOptions,
): ConsensusHead {
  const interval = options.blockIntervalMs;
  if (!(interval > 0)) throw new RangeError("blockIntervalMs must be > 0");
  const at = options.at;
  const minSources = Math.max(1, options.minSources ?? 2);
  const agree = options.agreeBlocks ?? defaultAgreeBlocks(interval);
  const maxHeadAge = options.maxHeadAgeMs ?? defaultMaxHeadAgeMs(interval);
  const maxObsAge = options.maxObservationAgeMs ?? 300_000;
  const maxSkew = options.maxFutureSkewMs ?? 30_000;
  const bound = options.previous ? projectHead(options.previous, at, interval) + agree : Infinity;

  const latest = new Map<string, HeadObservation>();
  for (const o of observations) {
    const prev = latest.get(o.source);
    if (!prev || o.observedAtMs > prev.observedAtMs) latest.set(o.source, o);
  }

  const verdicts: SourceVerdict[] = [];
  const candidates: Candidate[] = [];
  for (const o of latest.values()) {
    const verdict: SourceVerdict = {
      source: o.source,
      projectedHead: null,
      excluded: null,
      agrees: false,
      ahead: false,
    };
    verdicts.push(verdict);
    const headAge = o.headTimeMs === null ? null : o.observedAtMs - o.headTimeMs;
    if (at - o.observedAtMs > maxObsAge) verdict.excluded = "expired";
    else if (!Number.isSafeInteger(o.headBlock) || o.headBlock < 0 || o.headBlock > (options.ceiling ?? Infinity))
      verdict.excluded = "implausible";
    else if (headAge !== null && headAge < -maxSkew) verdict.excluded = "future";
    else if (headAge !== null && headAge > maxHeadAge) verdict.excluded = "stale";
    if (verdict.excluded) continue;
    const anchor = observationAnchor(o, interval);
    const projected = projectHead(anchor, at, interval);
    verdict.projectedHead = projected;
    if (projected > bound) {
      verdict.excluded = "runaway";
      continue;
    }
    candidates.push({ verdict, anchor, projected });
  }

  // Highest first; among equal projected heads the latest-produced phase first (the conservative one),
  // then the source name, so the decision does not depend on the order observations arrive in.
  const phase = (c: Candidate) => c.anchor.anchorMs + (c.projected - c.anchor.block) * interval;
  candidates.sort(
    (a, b) => b.projected - a.projected || phase(b) - phase(a) || (a.verdict.source < b.verdict.source ? -1 : 1),
  );
  const quorum = quorumFor(candidates.length, minSources);
  const chosen = candidates.length >= quorum ? candidates[quorum - 1] : undefined;
  if (!chosen) return { head: null, at, considered: candidates.length, agreeing: 0, quorum, sources: verdicts };

  const head: ConsensusAnchor = {
    block: chosen.projected,
    // The chosen source's anchor moved to the projected block, so later projections stay on its phase.
    anchorMs: phase(chosen),
  };
  let agreeing = 0;
  for (const c of candidates) {
    c.verdict.agrees = Math.abs(c.projected - head.block) <= agree;
    c.verdict.ahead = c.projected > head.block + agree;
    if (c.verdict.agrees) agreeing++;
  }
  return { head, at, considered: candidates.length, agreeing, quorum, sources: verdicts };
}

/** Blocks behind `reference` at `atMs` (0 when level or ahead); null without a reference. */
export function lagAgainst(
  reference: ConsensusAnchor | null,
  atMs: number,
  headBlock: number | null,
  blockIntervalMs: number,
): number | null {
  if (reference === null || headBlock === null) return null;
  return Math.max(0, projectHead(reference, atMs, blockIntervalMs) - headBlock);
}
