import { isDatabaseUnavailableError, type SqlClient } from "@rpcpulse/db/sql";
import { writeIngestJob, type IngestWriter } from "@rpcpulse/services/ingest";
import type { Processor } from "../shell/register-processor.js";
import { deferDelayMs, RetryLaterError } from "../shell/retry-later.js";

export interface IngestRetrySettings {
  /** First wait while PostgreSQL is away, doubling up to maxMs (INGEST_DB_RETRY_*). */
  baseMs: number;
  maxMs: number;
}

/**
 * ingest jobs: the payload (one agent batch, normalised) is parsed by the shell; the writer
 * coalesces it with the batches of other jobs in flight and resolves once its rows are committed,
 * then the batch's vantage probes (opted-in agents) go to probe_results.
 * PostgreSQL away (down, restarting, unreachable): the job is put back and tried again later, as
 * often as it takes, without using up an attempt, so an accepted batch outlives any outage.
 * Any other failure throws, and BullMQ retries the job with the catalog's backoff; after the
 * last attempt the job is parked (kept in the failed set for `npm run ingest:redrive`).
 */
export function createIngestProcessor(
  deps: { writer: IngestWriter; sql: SqlClient },
  retry: IngestRetrySettings,
): Processor<"ingest"> {
  return async (payload, { deferrals }) => {
    try {
      return await writeIngestJob(deps, payload);
    } catch (error) {
      if (!isDatabaseUnavailableError(error)) throw error;
      throw new RetryLaterError(
        deferDelayMs(deferrals, retry.baseMs, retry.maxMs),
        `database unavailable: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
}
