import type { IngestWriter } from "@rpcpulse/services";
import type { Processor } from "../shell/register-processor.js";

/**
 * ingest jobs: the payload (one agent batch, normalised) is parsed by the shell; the writer
 * coalesces it with the batches of other jobs in flight and resolves once its rows are committed.
 * A failed flush throws, and BullMQ retries the job with the catalog's backoff.
 */
export function createIngestProcessor(deps: { writer: IngestWriter }): Processor<"ingest"> {
  return async (payload) => deps.writer.write(payload);
}
