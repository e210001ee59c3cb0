import type { SqlClient } from "@rpcpulse/db";
import { writeIngestJob, type IngestWriter } from "@rpcpulse/services";
import type { Processor } from "../shell/register-processor.js";

/**
 * ingest jobs: the payload (one agent batch, normalised) is parsed by the shell; the writer
 * coalesces it with the batches of other jobs in flight and resolves once its rows are committed,
 * then the batch's vantage probes (opted-in agents) go to probe_results.
 * A failed write throws, and BullMQ retries the job with the catalog's backoff.
 */
export function createIngestProcessor(deps: { writer: IngestWriter; sql: SqlClient }): Processor<"ingest"> {
  return async (payload) => writeIngestJob(deps, payload);
}
