import type { NetworkHeadRow } from "@rpcpulse/db/ingest";
import type { ProbeSampleRow } from "@rpcpulse/db/directory";
import {
  classifyFreshness,
  measureProbeLags,
  probeAnswerTime,
  type FreshnessLimits,
  type LagProbe,
  type ScoreSample,
  type StoredDecision,
  type VantageSample,
} from "@rpcpulse/prober";

/** A probe as scoring sees it, with its lag against the consensus head at its own time. */
function toScoreSample(p: ProbeSampleRow, lagBlocks: number | null): ScoreSample {
  const answered = p.httpStatus !== null;
  const answeredAt = probeAnswerTime({ startedAt: p.time.getTime(), ttfbMs: p.ttfbMs });
  return {
    at: p.time.getTime(),
    ok: p.ok,
    answered,
    answeredError: answered && !p.ok && (p.errorClass === "rpc" || (p.httpStatus ?? 0) >= 400),
    rateLimited: p.rateLimited,
    ttfbMs: p.ok ? p.ttfbMs : null,
    lagBlocks: p.ok ? lagBlocks : null,
    headBlock: p.ok ? p.headBlock : null,
    headAgeMs: p.ok && p.headTime !== null ? answeredAt - p.headTime.getTime() : null,
    region: p.region,
  };
}

export function toStoredDecisions(rows: readonly NetworkHeadRow[]): StoredDecision[] {
  return rows.map((r) => ({
    timeMs: r.time.getTime(),
    anchor: { block: r.headBlock, anchorMs: r.anchorTime.getTime() },
  }));
}

/**
 * Every probe of a network as a vantage sample with its lag (measureProbeLags: the stored decision
 * nearest the probe projected to the moment it answered, or the consensus of its round's server probes,
 * where a claimed endpoint votes as its organization). Agents' probes get a lag but never vote.
 */
export function buildRankSamples(
  rows: readonly ProbeSampleRow[],
  decisions: readonly StoredDecision[],
  claimants: ReadonlyMap<string, string | null>,
  options: { blockIntervalMs: number; roundMs: number },
): VantageSample[] {
  const probes: LagProbe[] = rows.map((r) => {
    const claimant = claimants.get(r.endpointId) ?? null;
    return {
      startedAt: r.time.getTime(),
      ttfbMs: r.ttfbMs,
      ok: r.ok,
      headBlock: r.headBlock,
      headTimeMs: r.headTime?.getTime() ?? null,
      source: r.vantageKind !== "server" ? null : claimant ? `org:${claimant}` : `endpoint:${r.endpointId}`,
    };
  });
  const lags = measureProbeLags(probes, decisions, options);
  return rows.map((r, i) => ({
    endpointId: r.endpointId,
    region: r.region,
    vantagePointId: r.vantagePointId,
    kind: r.vantageKind,
    organizationId: r.vantageOrganizationId,
    sample: toScoreSample(r, lags[i]?.lagBlocks ?? null),
  }));
}

/** Probe shares over the last `ms`: answered fresh (uptime) and answered while lagging or stale. */
export function freshUptime(
  samples: readonly ScoreSample[],
  limits: FreshnessLimits,
  blockIntervalMs: number,
  now: number,
  windowsMs: readonly number[],
): Array<{ uptime: number | null; lagging: number | null }> {
  const flags = classifyFreshness(samples, limits, blockIntervalMs);
  return windowsMs.map((ms) => {
    let n = 0;
    let fresh = 0;
    let lagging = 0;
    samples.forEach((s, i) => {
      if (s.at <= now - ms || s.at > now) return;
      n++;
      if (!s.ok) return;
      if (flags[i]?.lagging) lagging++;
      else fresh++;
    });
    return n ? { uptime: fresh / n, lagging: lagging / n } : { uptime: null, lagging: null };
  });
}

/**
 * Per-minute freshness counts of one endpoint's successful server probes since `since`
 * (endpoint_freshness_minutes rows): probes, lagging, stale.
 */
export function freshnessMinutes(
  endpointId: string,
  samples: readonly ScoreSample[],
  limits: FreshnessLimits,
  blockIntervalMs: number,
  since: number,
): FreshnessMinute[] {
  const flags = classifyFreshness(samples, limits, blockIntervalMs);
  return countFreshnessMinutes(endpointId, samples, (i) => flags[i], since);
}

export interface FreshnessMinute {
  endpointId: string;
  bucket: Date;
  probes: number;
  lagging: number;
  stale: number;
}

/**
 * freshnessMinutes with the probes' freshness already classified (`flagsAt(i)`: classifyFreshness of
 * the same samples in the same order, as the rollup pass measures an endpoint's server probes).
 */
export function countFreshnessMinutes(
  endpointId: string,
  samples: readonly ScoreSample[],
  flagsAt: (i: number) => { lagging: boolean; stale: boolean } | undefined,
  since: number,
): FreshnessMinute[] {
  const minutes = new Map<number, { probes: number; lagging: number; stale: number }>();
  samples.forEach((s, i) => {
    if (!s.ok || s.at < since) return;
    const bucket = Math.floor(s.at / 60_000) * 60_000;
    const m = minutes.get(bucket) ?? { probes: 0, lagging: 0, stale: 0 };
    const flags = flagsAt(i);
    m.probes++;
    if (flags?.lagging) m.lagging++;
    if (flags?.stale) m.stale++;
    minutes.set(bucket, m);
  });
  return [...minutes].map(([bucket, m]) => ({ endpointId, bucket: new Date(bucket), ...m }));
}
