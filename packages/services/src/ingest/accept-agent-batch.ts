import { AppError } from "@rpcpulse/config";
import type { AgentBatch } from "@rpcpulse/domain";
import type { AgentIdentity } from "../fleet/agent-token-verifier.js";
import { checkBatchHeads } from "./check-batch-heads.js";
import { normaliseAgentBatch, type NormalisedBatch } from "./normalise-agent-batch.js";
import { selectVantageProbes, type VantageProbeRow } from "./select-vantage-probes.js";

/** The job the ingest API queues for one accepted batch (the "ingest" queue payload). */
export interface IngestJob extends NormalisedBatch {
  organizationId: string;
  nodeId: string;
  networkId: string;
  batchSeq: number;
  /** The agent install's id (wire installId); absent for older agents. Part of the idempotency key. */
  installId?: string;
  receivedAtMs: number;
  clockSkewMs: number;
  agentVersion: string;
  /** Opt-in vantage probes, already restricted to listed endpoints of the node's chain. */
  vantage?: { region: string; probes: VantageProbeRow[] };
}

export interface AcceptAgentBatchDeps {
  /**
   * Queue the job once per (nodeId, install, batchSeq): "duplicate" when that batch was accepted before.
   * Throws when the queue is unreachable (the caller answers 503).
   */
  enqueue(job: IngestJob): Promise<"queued" | "duplicate">;
  /**
   * Endpoints the node's agent may report vantage probes for (see createVantageEndpointFilter);
   * without it, vantage probes are dropped.
   */
  vantageEndpoints?: { allowedFor(networkId: string): Promise<ReadonlySet<string> | null> };
}

export interface IngestTimeWindow {
  /** |agent clock − server clock| (from the batch's sentAt) above this is refused: clock_skew. */
  maxClockSkewMs: number;
  /** Samples older than this (agent spool replay) are refused: stale_samples. */
  maxSampleAgeMs: number;
}

export const DEFAULT_INGEST_TIME_WINDOW: IngestTimeWindow = {
  maxClockSkewMs: 10 * 60_000,
  maxSampleAgeMs: 48 * 3_600_000,
};

export interface AcceptedBatch {
  status: "accepted" | "duplicate";
  samples: number;
  clockSkewMs: number;
  /** Present when the batch carried vantage probes: how many were kept and refused. */
  probes?: { accepted: number; refused: number };
}

/** 4xx that the agent must not retry; `reason` is machine-readable (the adapter maps these to 422). */
function refuse(reason: "clock_skew" | "stale_samples", message: string, details: Record<string, unknown>): AppError {
  return new AppError("VALIDATION", message, { details: { reason, ...details } });
}

/**
 * A validated wire batch from an authenticated agent: check it belongs to the token's node, that
 * its clock is within the window and its heads are plausible for the node's network, normalise it
 * and queue it (idempotent per install and batchSeq).
 */
export async function acceptAgentBatch(
  deps: AcceptAgentBatchDeps,
  input: {
    identity: AgentIdentity;
    batch: AgentBatch;
    receivedAtMs: number;
    /**
     * When this attempt was sent by the agent's clock. A spooled batch keeps its seal-time sentAt
     * across retries, so skew is judged on the attempt's own stamp when the agent sends one.
     */
    attemptSentAt?: string;
  },
  window: IngestTimeWindow = DEFAULT_INGEST_TIME_WINDOW,
): Promise<AcceptedBatch> {
  const { identity, batch, receivedAtMs } = input;
  // The token decides the node; a batch naming another node (of any organization) is refused.
  if (batch.nodeId !== undefined && batch.nodeId !== identity.nodeId) {
    throw new AppError("FORBIDDEN", "This token is not valid for the node named in the batch.");
  }
  const clockSkewMs = Math.round(Date.parse(input.attemptSentAt ?? batch.sentAt) - receivedAtMs);
  if (Math.abs(clockSkewMs) > window.maxClockSkewMs) {
    throw refuse(
      "clock_skew",
      `The agent clock is ${Math.round(clockSkewMs / 1000)} s off the server clock (allowed ±${Math.round(window.maxClockSkewMs / 1000)} s); fix the host's time sync.`,
      { clockSkewMs, maxClockSkewMs: window.maxClockSkewMs },
    );
  }
  const normalised = normaliseAgentBatch(batch);
  // Sample times judged on the server's clock (the agent's skew removed).
  let oldest = Infinity;
  let newest = -Infinity;
  for (const t of normalised.samples.time) {
    oldest = Math.min(oldest, t - clockSkewMs);
    newest = Math.max(newest, t - clockSkewMs);
  }
  if (newest > receivedAtMs + window.maxClockSkewMs) {
    throw refuse("clock_skew", "A sample is timestamped in the future beyond the allowed skew.", {
      aheadMs: Math.round(newest - receivedAtMs),
      maxClockSkewMs: window.maxClockSkewMs,
    });
  }
  if (oldest < receivedAtMs - window.maxSampleAgeMs) {
    throw refuse(
      "stale_samples",
      `A sample is older than ${Math.round(window.maxSampleAgeMs / 3_600_000)} h; it is not accepted any more.`,
      { ageMs: Math.round(receivedAtMs - oldest), maxSampleAgeMs: window.maxSampleAgeMs },
    );
  }
  checkBatchHeads(identity.networkSlug, normalised.samples, clockSkewMs);
  const selected = batch.vantage
    ? selectVantageProbes(batch.vantage, (await deps.vantageEndpoints?.allowedFor(identity.networkId)) ?? null, {
        receivedAtMs,
        clockSkewMs,
        ...window,
      })
    : null;
  const outcome = await deps.enqueue({
    organizationId: identity.organizationId,
    nodeId: identity.nodeId,
    networkId: identity.networkId,
    batchSeq: batch.batchSeq,
    ...(batch.installId ? { installId: batch.installId } : {}),
    receivedAtMs,
    clockSkewMs,
    agentVersion: batch.agent.version,
    ...normalised,
    ...(selected?.vantage ? { vantage: selected.vantage } : {}),
  });
  return {
    status: outcome === "duplicate" ? "duplicate" : "accepted",
    samples: batch.samples.length,
    clockSkewMs,
    ...(selected ? { probes: { accepted: selected.accepted, refused: selected.refused } } : {}),
  };
}
