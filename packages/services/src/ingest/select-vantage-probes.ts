import type { AgentBatch, AgentProbe } from "@rpcpulse/domain";

/** Probes of one endpoint kept per batch at most (an agent probes each endpoint about once a minute). */
export const MAX_PROBES_PER_ENDPOINT_PER_BATCH = 10;

/** A vantage probe as queued for the worker (times in epoch ms on the server's clock). */
export interface VantageProbeRow {
  time: number;
  endpointId: string;
  ok: boolean;
  httpStatus: number | null;
  errorClass: string | null;
  errorMessage: string | null;
  rateLimited: boolean;
  responseBytes: number;
  headBlock: number | null;
  headTime: number | null;
  finalizedBlock: number | null;
  dnsMs: number | null;
  connectMs: number | null;
  tlsMs: number | null;
  ttfbMs: number | null;
  totalMs: number | null;
}

export interface SelectedVantageProbes {
  vantage: { region: string; probes: VantageProbeRow[] } | undefined;
  accepted: number;
  /** Refused: not a listed endpoint of the node's chain, outside the time window, or over the per-endpoint cap. */
  refused: number;
}

function toRow(p: AgentProbe, clockSkewMs: number): VantageProbeRow {
  return {
    time: Date.parse(p.startedAt) - clockSkewMs,
    endpointId: p.endpointId,
    ok: p.ok,
    httpStatus: p.httpStatus,
    errorClass: p.errorClass,
    errorMessage: p.errorMessage,
    rateLimited: p.rateLimited,
    responseBytes: p.responseBytes,
    headBlock: p.headBlock,
    headTime: p.headTime === null ? null : Date.parse(p.headTime),
    finalizedBlock: p.finalizedBlock,
    dnsMs: p.phases?.dnsMs ?? null,
    connectMs: p.phases?.connectMs ?? null,
    tlsMs: p.phases?.tlsMs ?? null,
    ttfbMs: p.phases?.firstByteMs ?? null,
    totalMs: p.phases?.totalMs ?? null,
  };
}

/**
 * The probes of a batch the server keeps: only for `allowed` endpoints (listed, same chain as the
 * node; null = unknown, nothing kept), timed within the sample window on the server's clock, at most
 * MAX_PROBES_PER_ENDPOINT_PER_BATCH per endpoint. Pure.
 */
export function selectVantageProbes(
  vantage: AgentBatch["vantage"],
  allowed: ReadonlySet<string> | null,
  window: { receivedAtMs: number; clockSkewMs: number; maxClockSkewMs: number; maxSampleAgeMs: number },
): SelectedVantageProbes {
  if (!vantage || vantage.probes.length === 0) return { vantage: undefined, accepted: 0, refused: 0 };
  const perEndpoint = new Map<string, number>();
  const probes: VantageProbeRow[] = [];
  for (const probe of vantage.probes) {
    if (!allowed?.has(probe.endpointId)) continue;
    const row = toRow(probe, window.clockSkewMs);
    if (row.time > window.receivedAtMs + window.maxClockSkewMs) continue;
    if (row.time < window.receivedAtMs - window.maxSampleAgeMs) continue;
    const n = perEndpoint.get(probe.endpointId) ?? 0;
    if (n >= MAX_PROBES_PER_ENDPOINT_PER_BATCH) continue;
    perEndpoint.set(probe.endpointId, n + 1);
    probes.push(row);
  }
  return {
    vantage: probes.length > 0 ? { region: vantage.region, probes } : undefined,
    accepted: probes.length,
    refused: vantage.probes.length - probes.length,
  };
}
