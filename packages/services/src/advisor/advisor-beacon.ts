import type { AdvisorBeaconSample, AdvisorInput } from "@rpcpulse/advisor";
import { listBeaconSeries, listNodeBeaconLatest } from "@rpcpulse/db/fleet";
import { type SqlClient } from "@rpcpulse/db/sql";

export interface AdvisorBeacon {
  beacon: AdvisorBeaconSample[];
  beaconVersion: string | null;
}

/**
 * The Ethereum consensus client's readings over the advisor's window (beacon_samples) and its version
 * (node_beacon_latest), for the stalled-head rule; null for other families or when none were reported.
 */
export async function loadAdvisorBeacon(
  sql: SqlClient,
  params: { nodeId: string; family: string; from: Date; to: Date },
): Promise<AdvisorBeacon | null> {
  if (params.family !== "ethereum") return null;
  const series = await listBeaconSeries(sql, { nodeId: params.nodeId, from: params.from, to: params.to });
  if (series.length === 0) return null;
  const [latest] = await listNodeBeaconLatest(sql, [params.nodeId]);
  return { beacon: series, beaconVersion: latest?.version ?? null };
}

export function withBeacon(input: AdvisorInput, beacon: AdvisorBeacon | null): AdvisorInput {
  return beacon ? { ...input, window: { ...input.window, ...beacon } } : input;
}
