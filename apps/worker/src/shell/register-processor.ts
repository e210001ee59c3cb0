import { isAppError, type AppErrorCode, type Logger } from "@rpcpulse/config";
import {
  bullQueueName,
  instanceQueueName,
  isGroupJob,
  parseGroupPayloads,
  parsePayload,
  queueCatalog,
  type PayloadOf,
  type QueueName,
  type QueueTarget,
} from "@rpcpulse/queue";
import { DelayedError, UnrecoverableError, Worker, type Job } from "bullmq";
import { RetryLaterError } from "./retry-later.js";

/** What a processor gets besides its parsed payload. */
export interface ProcessorContext {
  log: Logger;
  jobId: string;
  /** 1 on the first try. */
  attempt: number;
  /** How many times this job was put back with RetryLaterError so far (those use up no attempt). */
  deferrals: number;
}

/** A processor: parse is done by the shell; it calls one service function and returns. */
export type Processor<N extends QueueName, R = unknown> = (payload: PayloadOf<N>, ctx: ProcessorContext) => Promise<R>;

export interface RegisterProcessorOptions {
  target: QueueTarget;
  log: Logger;
  concurrency: number;
  limiter?: { max: number; duration: number } | undefined;
  /** Consume the catalog queue's instance `<queue>.<instance>` (e.g. a region's probe queue) instead. */
  instance?: string;
}

/** Errors that no retry can fix: the job fails at once instead of burning its attempts. */
const PERMANENT: ReadonlySet<AppErrorCode> = new Set([
  "VALIDATION",
  "NOT_FOUND",
  "FORBIDDEN",
  "UNAUTHENTICATED",
  "CONFLICT",
  "PAYLOAD_TOO_LARGE",
  "CONFIG",
]);

export function isPermanentJobError(error: unknown): boolean {
  return error instanceof UnrecoverableError || (isAppError(error) && PERMANENT.has(error.code));
}

function describeError(error: unknown): { message: string; code?: string } {
  if (isAppError(error)) return { message: error.message, code: error.code };
  if (error instanceof Error) return { message: error.message, ...(hasCode(error) ? { code: error.code } : {}) };
  return { message: String(error) };
}

function hasCode(error: Error): error is Error & { code: string } {
  return typeof (error as { code?: unknown }).code === "string";
}

/**
 * A group job (several payloads in one job, see @rpcpulse/queue group-jobs.ts): every item runs
 * through the processor at once, as if it were its own job, and the job completes once all are
 * done. When some fail, the job fails with the most severe error (permanent, then any other, then
 * the longest RetryLaterError); the items that succeeded are run again with the retry, so
 * processors of groupable queues must be idempotent per payload (the ingest writer is).
 */
async function runGroup<N extends QueueName, R>(
  processor: Processor<N, R>,
  payloads: PayloadOf<N>[],
  ctx: ProcessorContext,
): Promise<R[]> {
  const settled = await Promise.allSettled(payloads.map((payload) => processor(payload, ctx)));
  const errors = settled.flatMap((s) => (s.status === "rejected" ? [s.reason as unknown] : []));
  if (errors.length === 0) return settled.map((s) => (s as PromiseFulfilledResult<R>).value);
  const permanent = errors.find(isPermanentJobError);
  if (permanent !== undefined) throw permanent;
  const other = errors.find((e) => !(e instanceof RetryLaterError));
  if (other !== undefined) throw other;
  throw (errors as RetryLaterError[]).reduce((a, b) => (b.delayMs > a.delayMs ? b : a));
}

/**
 * The one way a queue gets a consumer. Wraps the processor with payload validation, a child logger
 * (jobId, queue, tenant), wait/duration logging and error mapping: permanent AppErrors and invalid
 * payloads fail the job at once (UnrecoverableError); RetryLaterError puts the job back for its
 * delay without using up an attempt; anything else is retried with the catalog's backoff. Returns
 * the BullMQ Worker so the caller can close it on shutdown.
 */
export function registerProcessor<N extends QueueName, R>(
  queue: N,
  processor: Processor<N, R>,
  options: RegisterProcessorOptions,
): Worker {
  const queueLog = options.log.child({ queue: instanceQueueName(queue, options.instance) });
  const definition = queueCatalog[queue];

  const run = async (job: Job, token?: string): Promise<R | R[]> => {
    const started = performance.now();
    const attempt = job.attemptsMade + 1;
    const deferrals = Math.max(0, job.attemptsStarted - job.attemptsMade - 1);
    const maxAttempts = job.opts.attempts ?? 1;
    const jobId = job.id ?? "(none)";
    const waitMs = job.processedOn ? Math.max(0, job.processedOn - job.timestamp) : undefined;

    const group = isGroupJob(queue, job.name);
    let payloads: PayloadOf<N>[];
    // Items of a group job that fail the payload check: the valid ones are still processed, then
    // the job fails for good (parked with its message) instead of completing.
    let invalid: string[] = [];
    try {
      if (group) ({ payloads, invalid } = parseGroupPayloads(queue, job.data));
      else payloads = [parsePayload(queue, job.data)];
      if (payloads.length === 0) throw new UnrecoverableError(invalid.join("; "));
    } catch (error) {
      queueLog.error({ jobId, jobName: job.name, err: describeError(error) }, "job refused: invalid payload");
      throw new UnrecoverableError(describeError(error).message);
    }

    const tenantOf = definition.tenantOf as (p: PayloadOf<N>) => string | undefined;
    const tenantId = tenantOf(payloads[0]!);
    const log = queueLog.child({
      jobId,
      ...(tenantId && payloads.every((p) => tenantOf(p) === tenantId) ? { tenantId } : {}),
      ...(group ? { items: payloads.length } : {}),
    });
    log.debug({ attempt, waitMs }, "job started");
    try {
      const ctx = { log, jobId, attempt, deferrals };
      const result = group ? await runGroup(processor, payloads, ctx) : await processor(payloads[0]!, ctx);
      if (invalid.length > 0) throw new UnrecoverableError(`invalid items: ${invalid.join("; ")}`);
      log.info({ attempt, waitMs, durationMs: Math.round(performance.now() - started) }, "job completed");
      return result;
    } catch (error) {
      if (error instanceof RetryLaterError && token) {
        // Back to the delayed set without using up an attempt (the job stays in Redis throughout).
        log[deferrals === 0 ? "warn" : "debug"](
          { attempt, deferrals: deferrals + 1, retryInMs: error.delayMs, err: error.message },
          "job deferred, will retry",
        );
        await job.moveToDelayed(Date.now() + error.delayMs, token);
        throw new DelayedError();
      }
      const permanent = isPermanentJobError(error);
      const willRetry = !permanent && attempt < maxAttempts;
      const fields = {
        attempt,
        maxAttempts,
        willRetry,
        durationMs: Math.round(performance.now() - started),
        err: describeError(error),
      };
      if (willRetry) log.warn(fields, "job failed, will retry");
      else log.error(fields, "job failed");
      if (permanent && !(error instanceof UnrecoverableError)) {
        throw new UnrecoverableError(describeError(error).message);
      }
      throw error;
    }
  };

  const worker = new Worker(bullQueueName(queue, options.target.connection, options.instance), run, {
    connection: options.target.connection,
    prefix: options.target.prefix,
    concurrency: options.concurrency,
    ...(options.limiter ? { limiter: options.limiter } : {}),
  });
  // Without a listener an 'error' (e.g. Redis gone) would crash the process; BullMQ reconnects.
  worker.on("error", (error) => queueLog.error({ err: describeError(error) }, "worker error"));
  queueLog.info({ concurrency: options.concurrency, limiter: options.limiter ?? null }, "consumer started");
  return worker;
}
