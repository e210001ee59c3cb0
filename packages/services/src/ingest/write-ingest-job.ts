import type { SqlClient } from "@rpcpulse/db/sql";
import { recordVantageProbes } from "../directory/record-vantage-probes.js";
import type { IngestJob } from "./accept-agent-batch.js";
import type { IngestWriter, IngestWriteJob, IngestWriteResult } from "./ingest-writer.js";

export type WriteIngestJobInput = IngestWriteJob & Partial<Pick<IngestJob, "organizationId" | "vantage">>;

/**
 * The worker's ingest job: the node's samples through the micro-batching writer (committed when
 * this resolves), then the vantage probes the batch carried, if any. A failure throws so the queue
 * retries the whole job; both writes are idempotent.
 */
export async function writeIngestJob(
  deps: { writer: IngestWriter; sql: SqlClient },
  job: WriteIngestJobInput,
): Promise<IngestWriteResult & { probesInserted: number }> {
  const result = await deps.writer.write(job);
  let probesInserted = 0;
  if (job.vantage && job.vantage.probes.length > 0 && job.organizationId) {
    const recorded = await recordVantageProbes(deps, {
      organizationId: job.organizationId,
      nodeId: job.nodeId,
      networkId: job.networkId,
      region: job.vantage.region,
      probes: job.vantage.probes,
    });
    probesInserted = recorded.inserted;
  }
  return { ...result, probesInserted };
}
