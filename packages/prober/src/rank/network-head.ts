export interface HeadObservation {
  endpointId: string;
  ok: boolean;
  headBlock: number | null;
  /** Production time of the reported head (ms), when the family tells it. */
  headTime: number | null;
  /** When the probe ran (ms). */
  observedAt: number;
}

export interface NetworkHeadOptions {
  now: number;
  blockIntervalMs: number;
  /** Endpoints that must agree on the head (within agreeBlocks). Default 2. */
  minAgreeing?: number;
  /** Heads within this many blocks agree. Default max(2, blocks in 30 s). */
  agreeBlocks?: number;
  /** Head older than this (head time vs probe time) is stale: excluded from consensus. Default max(60 s, 20 blocks). */
  maxHeadAgeMs?: number;
  /** Observations older than this are ignored. Default 5 min. */
  maxObservationAgeMs?: number;
  /** A head time this far ahead of the probe time is bogus. Default 30 s. */
  maxFutureSkewMs?: number;
}

export type HeadExclusion = "failed" | "stale" | "future" | "expired" | "unsupported";

export interface EndpointLag {
  endpointId: string;
  /** Reported head moved forward to `now` by elapsed block intervals. */
  projectedHead: number | null;
  /** Blocks behind the network head (0 when level or ahead); null without a head or consensus. */
  lagBlocks: number | null;
  lagMs: number | null;
  /** More than agreeBlocks ahead of the consensus: a bogus or forked head. */
  ahead: boolean;
  /** Age of the head block when it was observed, when the family reports head times. */
  headAgeMs: number | null;
  /** Why this endpoint did not count towards consensus (null when it did). */
  excluded: HeadExclusion | null;
}

export interface NetworkHead {
  /** Consensus head at `now`, or null when fewer than minAgreeing endpoints agree. */
  head: number | null;
  /** Endpoints within agreeBlocks of the chosen head. */
  supporters: number;
  /** Fresh, healthy endpoints considered. */
  considered: number;
  lags: EndpointLag[];
}

/** Latest observation per endpoint. */
function latestPerEndpoint(observations: readonly HeadObservation[]): HeadObservation[] {
  const latest = new Map<string, HeadObservation>();
  for (const o of observations) {
    const prev = latest.get(o.endpointId);
    if (!prev || o.observedAt > prev.observedAt) latest.set(o.endpointId, o);
  }
  return [...latest.values()];
}

/**
 * Network head by agreement: among fresh, healthy endpoints (heads projected to `now`), the highest
 * head that at least `minAgreeing` endpoints confirm within `agreeBlocks`. One endpoint reporting a
 * far-future head has no support and cannot move it; lagging endpoints do not pull it down (it is
 * the top of the agreeing cluster, not a median). Lag of every endpoint is measured against it.
 */
export function computeNetworkHead(observations: readonly HeadObservation[], options: NetworkHeadOptions): NetworkHead {
  const interval = options.blockIntervalMs;
  if (!(interval > 0)) throw new RangeError("blockIntervalMs must be > 0");
  const k = Math.max(1, options.minAgreeing ?? 2);
  const agree = options.agreeBlocks ?? Math.max(2, Math.ceil(30_000 / interval));
  const maxHeadAge = options.maxHeadAgeMs ?? Math.max(60_000, 20 * interval);
  const maxObsAge = options.maxObservationAgeMs ?? 300_000;
  const maxSkew = options.maxFutureSkewMs ?? 30_000;
  const now = options.now;

  const lags: EndpointLag[] = [];
  const candidates: number[] = [];
  for (const o of latestPerEndpoint(observations)) {
    const lag: EndpointLag = {
      endpointId: o.endpointId,
      projectedHead: null,
      lagBlocks: null,
      lagMs: null,
      ahead: false,
      headAgeMs: o.headTime === null ? null : o.observedAt - o.headTime,
      excluded: null,
    };
    lags.push(lag);
    if (now - o.observedAt > maxObsAge) {
      lag.excluded = "expired";
      continue;
    }
    if (!o.ok || o.headBlock === null || !Number.isSafeInteger(o.headBlock)) {
      lag.excluded = "failed";
      continue;
    }
    lag.projectedHead = o.headBlock + Math.floor(Math.max(0, now - o.observedAt) / interval);
    if (lag.headAgeMs !== null && lag.headAgeMs < -maxSkew) lag.excluded = "future";
    else if (lag.headAgeMs !== null && lag.headAgeMs > maxHeadAge) lag.excluded = "stale";
    else candidates.push(lag.projectedHead);
  }

  candidates.sort((a, b) => b - a);
  let head: number | null = null;
  let supporters = 0;
  for (const h of candidates) {
    const support = candidates.filter((c) => Math.abs(c - h) <= agree).length;
    if (support >= k) {
      head = h;
      supporters = support;
      break;
    }
  }
  // With no agreeing cluster, fall back to nothing rather than trusting a single answer.
  if (head !== null) {
    for (const lag of lags) {
      if (lag.projectedHead === null) continue;
      lag.ahead = lag.projectedHead > head + agree;
      lag.lagBlocks = Math.max(0, head - lag.projectedHead);
      lag.lagMs = lag.lagBlocks * interval;
    }
  }
  return { head, supporters, considered: candidates.length, lags };
}

export interface RegressionReport {
  /** Endpoints whose head went backwards at least once. */
  endpointsWithRegression: number;
  perEndpoint: Array<{ endpointId: string; regressions: number; maxDepthBlocks: number; lastAt: number }>;
}

/**
 * Counts heads going backwards between consecutive successful probes of one endpoint (a load
 * balancer mixing backends at different heights: "time travel" for its users).
 */
export function detectHeadRegressions(history: readonly HeadObservation[], toleranceBlocks = 0): RegressionReport {
  const byEndpoint = new Map<string, HeadObservation[]>();
  for (const o of history) {
    if (!o.ok || o.headBlock === null) continue;
    const list = byEndpoint.get(o.endpointId) ?? [];
    list.push(o);
    byEndpoint.set(o.endpointId, list);
  }
  const perEndpoint: RegressionReport["perEndpoint"] = [];
  for (const [endpointId, list] of byEndpoint) {
    list.sort((a, b) => a.observedAt - b.observedAt);
    let regressions = 0;
    let maxDepth = 0;
    let lastAt = 0;
    let highest = list[0]?.headBlock ?? 0;
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]?.headBlock ?? 0;
      const cur = list[i]?.headBlock ?? 0;
      if (cur < prev - toleranceBlocks) {
        regressions++;
        maxDepth = Math.max(maxDepth, highest - cur);
        lastAt = list[i]?.observedAt ?? lastAt;
      }
      highest = Math.max(highest, cur);
    }
    if (regressions > 0) perEndpoint.push({ endpointId, regressions, maxDepthBlocks: maxDepth, lastAt });
  }
  perEndpoint.sort((a, b) => b.regressions - a.regressions || a.endpointId.localeCompare(b.endpointId));
  return { endpointsWithRegression: perEndpoint.length, perEndpoint };
}
