import { createJobGrouper, ingestBatchStream, type QueueTarget, type RedisConnection } from "@rpcpulse/queue";
import type { IngestJob } from "@rpcpulse/services/ingest";

/**
 * The ingest API's Redis work besides the queue itself: a per-token token bucket and the
 * per-node set of recently accepted batches, keyed by install and batch sequence (for
 * "duplicate" answers; a reinstalled agent restarting at 1 has another install).
 */

// Token bucket in one script; Redis' own clock so several ingest processes agree.
const TAKE_TOKEN_LUA = `
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 't', 'v')
local last = tonumber(state[1])
local tokens = tonumber(state[2])
if tokens == nil or last == nil then tokens = burst; last = now end
tokens = math.min(burst, tokens + math.max(0, now - last) * rate)
local wait = 0
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = math.ceil((1 - tokens) / rate)
end
redis.call('HSET', KEYS[1], 't', now, 'v', tostring(tokens))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 1000)
return {allowed, wait}`;

// Remember a batch sequence; trim to the newest `window`; 1 when new, 0 when seen before.
const MARK_SEEN_LUA = `
local added = redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1])
if added == 1 then
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return added`;

type ScriptedRedis = RedisConnection & {
  rpcpulseTakeToken(key: string, ratePerMs: number, burst: number): Promise<[number, number]>;
  rpcpulseMarkSeen(key: string, seq: string, score: number, window: number, ttlMs: number): Promise<number>;
};

export interface IngestRedisOptions {
  ratePerSecond: number;
  burst: number;
  dedupeWindow: number;
  /** Retry schedule of the queued job for errors other than a database outage (catalog defaults otherwise). */
  jobAttempts?: number;
  jobBackoffMs?: number;
  /**
   * Batches accepted within this window go to the queue as one job (a group of one is a plain
   * job); bounded by `groupMaxBatches` batches and `groupMaxSamples` samples; below `groupMinRate`
   * batches per second a batch goes alone at once. Defaults: 10 ms, 256, 2,000, 0 (always group).
   */
  groupMaxDelayMs?: number;
  groupMaxBatches?: number;
  groupMaxSamples?: number;
  groupMinRate?: number;
}

export interface IngestRedis {
  /** allowed, or how long until the next request of this token would be. */
  takeToken(tokenId: string): Promise<{ allowed: boolean; retryAfterMs: number }>;
  enqueue(job: IngestJob): Promise<"queued" | "duplicate">;
}

const SEEN_TTL_MS = 7 * 86_400_000;

/**
 * `target` holds the queue; `commands` runs the per-request commands (token bucket, dedupe set):
 * best a connection other than the queue's, with only these two scripts defined (see start-ingest.ts).
 */
export function createIngestRedis(
  target: QueueTarget,
  commands: RedisConnection,
  options: IngestRedisOptions,
): IngestRedis {
  const redis = commands as ScriptedRedis;
  if (typeof redis.rpcpulseTakeToken !== "function") {
    redis.defineCommand("rpcpulseTakeToken", { numberOfKeys: 1, lua: TAKE_TOKEN_LUA });
    redis.defineCommand("rpcpulseMarkSeen", { numberOfKeys: 1, lua: MARK_SEEN_LUA });
  }
  const seenKey = (nodeId: string) => `${target.prefix}:ingest:seen:${nodeId}`;
  const jobOptions = {
    ...(options.jobAttempts !== undefined ? { attempts: options.jobAttempts } : {}),
    ...(options.jobBackoffMs !== undefined
      ? { backoff: { type: "exponential" as const, delay: options.jobBackoffMs, jitter: 0.2 } }
      : {}),
  };
  // One queue job per window of accepted batches instead of one per batch: the per-job cost
  // (BullMQ's Lua scripts and round trips here and in the worker) is paid once per group.
  const grouper = createJobGrouper("ingest", target, {
    maxDelayMs: options.groupMaxDelayMs ?? 10,
    maxItems: options.groupMaxBatches ?? 256,
    maxWeight: options.groupMaxSamples ?? 2_000,
    weightOf: (job) => job.samples.time.length,
    minRatePerSecond: options.groupMinRate ?? 0,
    jobOptions,
  });
  return {
    async takeToken(tokenId) {
      const [allowed, waitMs] = await redis.rpcpulseTakeToken(
        `${target.prefix}:ingest:rate:${tokenId}`,
        options.ratePerSecond / 1000,
        options.burst,
      );
      return { allowed: allowed === 1, retryAfterMs: waitMs };
    },
    async enqueue(job) {
      const key = seenKey(job.nodeId);
      const member = `${ingestBatchStream(job)}-${job.batchSeq}`;
      if ((await redis.zscore(key, member)) !== null) return "duplicate";
      // Resolves once the job holding this batch is in Redis (rejects, and the request gets 503,
      // when that add failed). Alone in its window, the batch is a plain job with the id
      // (node, install, batchSeq): adding it again while it exists is a no-op in BullMQ. In a
      // group, a batch added twice (a retry racing its first add) is stored once by the writer.
      await grouper.add(job);
      const added = await redis.rpcpulseMarkSeen(key, member, job.receivedAtMs, options.dedupeWindow, SEEN_TTL_MS);
      return added === 1 ? "queued" : "duplicate";
    },
  };
}
