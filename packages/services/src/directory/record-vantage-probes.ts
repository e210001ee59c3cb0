import {
  agentVantagePointName,
  ensureVantagePoint,
  insertProbeResults,
  listVantageEndpointIds,
  type ProbeResultInput,
} from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import type { VantageProbeRow } from "../ingest/select-vantage-probes.js";

export interface RecordVantageProbesInput {
  organizationId: string;
  nodeId: string;
  networkId: string;
  region: string;
  probes: readonly VantageProbeRow[];
}

/**
 * Stores the probes an opted-in agent made: into probe_results under the vantage point of
 * (organization, node, region), kind "agent". The endpoint list is checked again here (an endpoint
 * may have been removed while the job waited). Idempotent: a replayed job inserts nothing twice.
 */
export async function recordVantageProbes(
  deps: { sql: SqlClient },
  input: RecordVantageProbesInput,
): Promise<{ vantagePointId: string | null; inserted: number }> {
  if (input.probes.length === 0) return { vantagePointId: null, inserted: 0 };
  const listed = new Set(await listVantageEndpointIds(deps.sql, input.networkId));
  const probes = input.probes.filter((p) => listed.has(p.endpointId));
  if (probes.length === 0) return { vantagePointId: null, inserted: 0 };
  const vantage = await ensureVantagePoint(deps.sql, {
    name: agentVantagePointName(input),
    region: input.region,
    kind: "agent",
    nodeId: input.nodeId,
  });
  const rows: ProbeResultInput[] = probes.map((p) => ({
    time: new Date(p.time),
    endpointId: p.endpointId,
    vantagePointId: vantage.id,
    ok: p.ok,
    httpStatus: p.httpStatus,
    errorClass: p.errorClass,
    errorMessage: p.errorMessage,
    dnsMs: p.dnsMs,
    connectMs: p.connectMs,
    tlsMs: p.tlsMs,
    ttfbMs: p.ttfbMs,
    totalMs: p.totalMs,
    headBlock: p.headBlock,
    headTime: p.headTime === null ? null : new Date(p.headTime),
    finalizedBlock: p.finalizedBlock,
    responseBytes: p.responseBytes,
    rateLimited: p.rateLimited,
  }));
  return { vantagePointId: vantage.id, inserted: await insertProbeResults(deps.sql, rows) };
}
