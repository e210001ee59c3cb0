import {
  updateNodeSampleLags,
  writeIngestFlush,
  type IngestFlushBatch,
  type SqlSessionPool,
} from "@rpcpulse/db/ingest";
import { type SqlClient } from "@rpcpulse/db/sql";
import type { IngestJob } from "./accept-agent-batch.js";
import type { NetworkHeadTracker, NodeHeadBatch } from "./network-heads.js";

/**
 * The worker's write stage: a micro-batcher. Jobs processed concurrently (worker concurrency
 * 32–64) hand their batch to write(); batches are coalesced and written together, one
 * transaction per flush (binary COPY), when `maxSamples` are pending or `maxDelayMs` after the
 * first one arrived. Each write() resolves only when its rows are committed, and rejects when
 * the flush failed, so BullMQ retries exactly the jobs whose rows are not stored.
 */
export interface IngestWriterOptions {
  /** Flush as soon as this many samples are pending (default 5,000). */
  maxSamples?: number;
  /** Flush at the latest this long after the first pending batch (default 25 ms). */
  maxDelayMs?: number;
  /** Flushes in flight at once (default 2; each holds one database connection). */
  maxConcurrentFlushes?: number;
  networkHeads?: NetworkHeadTracker;
  onFlush?: (stats: FlushStats) => void;
  onBackgroundError?: (error: unknown) => void;
}

export interface FlushStats {
  batches: number;
  samples: number;
  samplesInserted: number;
  remoteIpsInserted: number;
  path: "copy" | "upsert";
  durationMs: number;
}

export type IngestWriteJob = Pick<
  IngestJob,
  | "organizationId"
  | "nodeId"
  | "networkId"
  | "batchSeq"
  | "receivedAtMs"
  | "clockSkewMs"
  | "agentVersion"
  | "clientVersion"
  | "samples"
  | "remoteIps"
> &
  Partial<Pick<IngestJob, "settings" | "beacon">>;

export interface IngestWriteResult {
  /** Rows committed by the flush this batch was part of (the whole flush, not only this batch). */
  flushSamplesInserted: number;
  path: "copy" | "upsert";
}

export interface IngestWriter {
  write(job: IngestWriteJob): Promise<IngestWriteResult>;
  /** Flush what is pending and wait for flushes in flight. */
  close(): Promise<void>;
}

interface Pending {
  job: IngestWriteJob;
  resolve: (r: IngestWriteResult) => void;
  reject: (e: unknown) => void;
}

/** Errors caused by the data rather than by the database being away: worth isolating per batch. */
function isDataError(error: unknown): boolean {
  if (error instanceof TypeError || error instanceof RangeError) return true;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && /^(22|23)/.test(code);
}

function headBatchOf(job: IngestWriteJob): NodeHeadBatch {
  return {
    organizationId: job.organizationId,
    networkId: job.networkId,
    nodeId: job.nodeId,
    times: job.samples.time,
    heads: job.samples.headBlock,
    headTimes: job.samples.headTime,
  };
}

export function createIngestWriter(
  deps: { pool: SqlSessionPool & SqlClient },
  options: IngestWriterOptions = {},
): IngestWriter {
  const maxSamples = options.maxSamples ?? 5_000;
  const maxDelayMs = options.maxDelayMs ?? 25;
  const maxConcurrent = options.maxConcurrentFlushes ?? 2;
  let pending: Pending[] = [];
  let pendingSamples = 0;
  let timer: NodeJS.Timeout | undefined;
  let active = 0;
  const inFlight = new Set<Promise<void>>();

  const toFlushBatch = (job: IngestWriteJob, lagBlocks: (number | null)[] | undefined): IngestFlushBatch => ({
    nodeId: job.nodeId,
    batchSeq: job.batchSeq,
    receivedAtMs: job.receivedAtMs,
    clockSkewMs: job.clockSkewMs,
    agentVersion: job.agentVersion,
    clientVersion: job.clientVersion,
    samples: job.samples,
    remoteIps: job.remoteIps,
    settings: job.settings ?? null,
    beacon: job.beacon ?? null,
    lagBlocks: lagBlocks ?? job.samples.time.map(() => null),
  });

  /** Samples written earlier whose lag this flush's heads change (late leader batches): stored, best effort. */
  const reviseLags = async (heads: NetworkHeadTracker, group: Pending[]) => {
    const corrections = heads.revise(group.map((p) => headBatchOf(p.job)));
    if (corrections.length === 0) return;
    await updateNodeSampleLags(deps.pool, corrections).catch((error: unknown) => options.onBackgroundError?.(error));
  };

  const run = async (group: Pending[]): Promise<void> => {
    const started = performance.now();
    const heads = options.networkHeads;
    if (heads) {
      await heads.refresh().catch((error: unknown) => options.onBackgroundError?.(error));
      for (const p of group) heads.observe(headBatchOf(p.job));
    }
    try {
      // One pass over each organization's nodes for the whole flush (see lagBlocksOfBatches).
      const lags = heads?.lagBlocksOfBatches(group.map((p) => headBatchOf(p.job)));
      const result = await writeIngestFlush(
        deps.pool,
        group.map((p, i) => toFlushBatch(p.job, lags?.[i])),
      );
      options.onFlush?.({
        batches: group.length,
        samples: group.reduce((n, p) => n + p.job.samples.time.length, 0),
        samplesInserted: result.samplesInserted,
        remoteIpsInserted: result.remoteIpsInserted,
        path: result.path,
        durationMs: performance.now() - started,
      });
      for (const p of group) p.resolve({ flushSamplesInserted: result.samplesInserted, path: result.path });
      if (heads) await reviseLags(heads, group);
    } catch (error) {
      if (group.length > 1 && isDataError(error)) {
        // One bad batch must not fail its neighbours: write each alone.
        await Promise.all(group.map((p) => run([p])));
        return;
      }
      for (const p of group) p.reject(error);
    }
  };

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    while (pending.length > 0 && active < maxConcurrent) {
      // Take up to maxSamples (at least one batch).
      let taken = 0;
      let samples = 0;
      while (
        taken < pending.length &&
        (taken === 0 || samples + pending[taken]!.job.samples.time.length <= maxSamples)
      ) {
        samples += pending[taken]!.job.samples.time.length;
        taken++;
      }
      const group = pending.slice(0, taken);
      pending = pending.slice(taken);
      pendingSamples -= samples;
      active++;
      const done = run(group).finally(() => {
        active--;
        inFlight.delete(done);
        if (pendingSamples >= maxSamples) flush();
        else if (pending.length > 0 && !timer) timer = setTimeout(flush, maxDelayMs);
      });
      inFlight.add(done);
    }
  };

  return {
    write(job) {
      return new Promise<IngestWriteResult>((resolve, reject) => {
        pending.push({ job, resolve, reject });
        pendingSamples += job.samples.time.length;
        if (pendingSamples >= maxSamples) flush();
        else if (!timer) timer = setTimeout(flush, maxDelayMs);
      });
    },
    async close() {
      while (pending.length > 0 || inFlight.size > 0) {
        flush();
        await Promise.race([...inFlight, new Promise((r) => setTimeout(r, maxDelayMs))]);
      }
      clearTimeout(timer);
    },
  };
}
