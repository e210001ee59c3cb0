import { isAppError, type AppErrorCode, type Logger } from "@rpcpulse/config";
import {
  bullQueueName,
  instanceQueueName,
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

  const run = async (job: Job, token?: string): Promise<R> => {
    const started = performance.now();
    const attempt = job.attemptsMade + 1;
    const deferrals = Math.max(0, job.attemptsStarted - job.attemptsMade - 1);
    const maxAttempts = job.opts.attempts ?? 1;
    const jobId = job.id ?? "(none)";
    const waitMs = job.processedOn ? Math.max(0, job.processedOn - job.timestamp) : undefined;

    let payload: PayloadOf<N>;
    try {
      payload = parsePayload(queue, job.data);
    } catch (error) {
      queueLog.error({ jobId, jobName: job.name, err: describeError(error) }, "job refused: invalid payload");
      throw new UnrecoverableError(describeError(error).message);
    }

    const tenantId = (definition.tenantOf as (p: PayloadOf<N>) => string | undefined)(payload);
    const log = queueLog.child({ jobId, ...(tenantId ? { tenantId } : {}) });
    log.debug({ attempt, waitMs }, "job started");
    try {
      const result = await processor(payload, { log, jobId, attempt, deferrals });
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
