import {
  computeConsensusHead,
  projectHead,
  type ConsensusAnchor,
  type HeadObservation as ConsensusObservation,
} from "@rpcpulse/domain";
import { SCORING } from "./methodology.js";

/** One stored probe as lag measurement needs it. */
export interface LagProbe {
  /** When the probe started (ms). */
  startedAt: number;
  /** Time to first byte (ms): the endpoint's head is taken as of startedAt + ttfbMs, when it answered. */
  ttfbMs: number | null;
  ok: boolean;
  headBlock: number | null;
  /** Production time of the head block (ms), when the family reports it. */
  headTimeMs: number | null;
  /**
   * Independent source this probe votes as in the fallback consensus ("endpoint:<id>", "org:<id>"),
   * or null when it must not vote (agents' probes).
   */
  source: string | null;
}

/** A stored consensus decision (network_heads row). */
export interface StoredDecision {
  timeMs: number;
  anchor: ConsensusAnchor;
}

export interface ProbeLagOptions {
  blockIntervalMs: number;
  /** Fallback rounds: probes whose start falls in the same fixed window of this length. Default 30 s. */
  roundMs?: number;
  /** Use a stored decision only this close to the probe. Default SCORING.lag.decisionMaxDistanceMs. */
  maxDecisionDistanceMs?: number;
}

export interface ProbeLag {
  /** Consensus head at the probe's answer time; null without one. */
  referenceBlock: number | null;
  /** max(0, reference − head) for successful probes with a head; null otherwise. */
  lagBlocks: number | null;
  /** Where the reference came from. */
  via: "stored" | "round" | null;
}

/** When the probe's head was read: start + time to first byte. */
export function probeAnswerTime(p: Pick<LagProbe, "startedAt" | "ttfbMs">): number {
  return p.startedAt + Math.max(0, p.ttfbMs ?? 0);
}

function nearestDecision(sorted: readonly StoredDecision[], at: number, maxDistance: number): StoredDecision | null {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid]?.timeMs ?? 0) < at) lo = mid + 1;
    else hi = mid;
  }
  const after = sorted[lo];
  const before = sorted[lo - 1];
  const dAfter = after ? after.timeMs - at : Infinity;
  const dBefore = before ? at - before.timeMs : Infinity;
  const best = dBefore <= dAfter ? before : after;
  return best && Math.min(dBefore, dAfter) <= maxDistance ? best : null;
}

function compareObservations(a: ConsensusObservation, b: ConsensusObservation): number {
  return (
    a.source.localeCompare(b.source) ||
    a.observedAtMs - b.observedAtMs ||
    a.headBlock - b.headBlock ||
    (a.headTimeMs ?? -1) - (b.headTimeMs ?? -1)
  );
}

/**
 * Lag of every probe against the consensus head projected to its own answer time: the stored
 * decision nearest that time (within maxDecisionDistanceMs), projected with projectHead; without one,
 * the same computeConsensusHead over the voting probes of its round (fixed window of roundMs, with the
 * windows either side so each source's latest probe is there), also projected to the probe's time. An endpoint at the head reads 0 wherever it sits in the round, a
 * fixed lag reads the same number on every probe. Pure, and independent of the input order (results
 * follow the input order).
 */
export function measureProbeLags(
  probes: readonly LagProbe[],
  decisions: readonly StoredDecision[],
  options: ProbeLagOptions,
): ProbeLag[] {
  const interval = options.blockIntervalMs;
  const roundMs = Math.max(1, options.roundMs ?? 30_000);
  const maxDistance = options.maxDecisionDistanceMs ?? SCORING.lag.decisionMaxDistanceMs;
  const sorted = [...decisions].sort(
    (a, b) => a.timeMs - b.timeMs || a.anchor.block - b.anchor.block || a.anchor.anchorMs - b.anchor.anchorMs,
  );

  // The voting probes by round, gathered the first time a probe has no stored decision near it (with
  // decisions stored every few seconds, never).
  let rounds: Map<number, ConsensusObservation[]> | undefined;
  const roundsOf = (): Map<number, ConsensusObservation[]> => {
    if (rounds) return rounds;
    rounds = new Map();
    for (const p of probes) {
      if (!p.ok || p.headBlock === null || p.source === null) continue;
      const key = Math.floor(p.startedAt / roundMs);
      const list = rounds.get(key) ?? [];
      // Read when it answered: a block produced while the request was in flight is not dated earlier.
      list.push({
        source: p.source,
        headBlock: p.headBlock,
        headTimeMs: p.headTimeMs,
        observedAtMs: probeAnswerTime(p),
      });
      rounds.set(key, list);
    }
    return rounds;
  };
  const roundHeads = new Map<number, ConsensusAnchor | null>();
  const roundHead = (key: number): ConsensusAnchor | null => {
    if (!roundHeads.has(key)) {
      const byRound = roundsOf();
      // The round and its neighbours: a source probed once per round appears whatever the phase of the
      // rounds against the fixed windows; the latest observation of each source counts.
      const observations = [key - 1, key, key + 1].flatMap((k) => byRound.get(k) ?? []).sort(compareObservations);
      const decided = computeConsensusHead(observations, { at: (key + 1) * roundMs, blockIntervalMs: interval });
      roundHeads.set(key, decided.head);
    }
    return roundHeads.get(key) ?? null;
  };

  return probes.map((p) => {
    const at = probeAnswerTime(p);
    const stored = nearestDecision(sorted, at, maxDistance);
    const anchor = stored ? stored.anchor : roundHead(Math.floor(p.startedAt / roundMs));
    const via = stored ? "stored" : anchor ? "round" : null;
    const referenceBlock = anchor ? projectHead(anchor, at, interval) : null;
    const lagBlocks =
      referenceBlock !== null && p.ok && p.headBlock !== null ? Math.max(0, referenceBlock - p.headBlock) : null;
    return { referenceBlock, lagBlocks, via };
  });
}
