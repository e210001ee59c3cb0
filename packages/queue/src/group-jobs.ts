import { AppError } from "@rpcpulse/config";
import type { Queue } from "bullmq";
import { queueCatalog, type PayloadOf, type QueueName } from "./catalog.js";
import { addParsedJob, type EnqueuedJob, type EnqueueOptions } from "./enqueue.js";
import { getQueue, type QueueTarget } from "./get-queue.js";
import { parsePayload } from "./parse-payload.js";

/**
 * Group jobs: several payloads of one queue in one BullMQ job (`{ items: [...] }`, job name
 * `group.jobName` of the catalog entry), so a producer that accepts many small payloads at once
 * pays the queue's per-job cost (Lua scripts, round trips, completion) once per group instead of
 * once per payload. The consumer processes each item as if it were its own job and finishes the
 * group once every item is done (apps/worker registerProcessor). A group of one is added as a
 * plain job with the catalog's job id, exactly as enqueue() does.
 */

function groupOf(name: QueueName): { jobName: string; maxItems: number } {
  const group = queueCatalog[name].group;
  if (!group) throw new Error(`queue "${name}" takes no group jobs`);
  return group;
}

/**
 * The items of a group job, each checked against the queue's payload: the valid ones, and a
 * message per invalid one (`items.3: Invalid "ingest" job payload: ...`), so a consumer can still
 * process the valid items. Throws AppError("VALIDATION") when `items` itself is malformed.
 */
export function parseGroupPayloads<N extends QueueName>(
  name: N,
  data: unknown,
): { payloads: PayloadOf<N>[]; invalid: string[] } {
  const group = groupOf(name);
  const items = (data as { items?: unknown } | null)?.items;
  if (!Array.isArray(items) || items.length < 1 || items.length > group.maxItems) {
    throw new AppError(
      "VALIDATION",
      `Invalid "${name}" group job payload: items must hold 1-${group.maxItems} payloads`,
      {
        details: { queue: name, fields: ["items"] },
      },
    );
  }
  const payloads: PayloadOf<N>[] = [];
  const invalid: string[] = [];
  items.forEach((item, i) => {
    try {
      payloads.push(parsePayload(name, item));
    } catch (error) {
      invalid.push(`items.${i}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return { payloads, invalid };
}

/** Whether a job is a group job of its queue. */
export function isGroupJob(name: QueueName, jobName: string): boolean {
  return queueCatalog[name].group?.jobName === jobName;
}

/** Add already parsed payloads as one job: a plain job for one, a group job for several. */
async function addParsedGroup<N extends QueueName>(
  name: N,
  target: QueueTarget,
  items: PayloadOf<N>[],
  options: EnqueueOptions,
): Promise<EnqueuedJob> {
  if (items.length === 1) return addParsedJob(name, target, items[0]!, options);
  const group = groupOf(name);
  if (items.length > group.maxItems) throw new Error(`a "${name}" group job holds at most ${group.maxItems} items`);
  // No job id: a group is added once; a payload re-sent later lands in another job, and the
  // consumer's writes are idempotent per payload.
  const queue = getQueue(name, target) as unknown as Queue;
  const job = await queue.add(group.jobName, { items }, options);
  if (!job.id) throw new Error(`BullMQ returned no id for a "${name}" group job`);
  return { jobId: job.id, queue: name };
}

/** Validate every payload, then add them as one job (a plain job when there is only one). */
export async function enqueueGroup<N extends QueueName>(
  name: N,
  target: QueueTarget,
  payloads: unknown[],
  options: EnqueueOptions = {},
): Promise<EnqueuedJob> {
  if (payloads.length === 0) throw new Error("enqueueGroup needs at least one payload");
  return addParsedGroup(
    name,
    target,
    payloads.map((p) => parsePayload(name, p)),
    options,
  );
}

export interface JobGrouperOptions<N extends QueueName> {
  /** A group is added at the latest this long after its first payload arrived. */
  maxDelayMs: number;
  /** At most this many payloads per job (capped by the catalog's group.maxItems). */
  maxItems: number;
  /** Bound of a group's summed weight (e.g. samples); a single heavier payload still goes alone. */
  maxWeight?: number;
  weightOf?: (payload: PayloadOf<N>) => number;
  /**
   * Below this many payloads per second (counted over the last second), a payload that finds no
   * group waiting is added at once as a plain job: grouping only pays off under load, and then it
   * costs no window wait at low rates. 0 (default): always group.
   */
  minRatePerSecond?: number;
  jobOptions?: EnqueueOptions;
}

export interface JobGrouper {
  /**
   * Validate the payload (AppError VALIDATION before anything is queued), then queue it with the
   * others that arrive within the window. Resolves once the job holding it is added to Redis;
   * rejects with that add's error (every payload of the group gets the same rejection). A payload
   * whose catalog job id equals one already waiting in the window shares that entry.
   */
  add(payload: unknown): Promise<EnqueuedJob>;
  /** Add what is waiting now and wait for the adds in flight. */
  flush(): Promise<void>;
}

interface Waiting<N extends QueueName> {
  data: PayloadOf<N>;
  done: Promise<EnqueuedJob>;
  resolve: (job: EnqueuedJob) => void;
  reject: (error: unknown) => void;
}

/** A producer-side batcher: payloads accepted within `maxDelayMs` become one (group) job. */
export function createJobGrouper<N extends QueueName>(
  name: N,
  target: QueueTarget,
  options: JobGrouperOptions<N>,
): JobGrouper {
  const maxItems = Math.max(1, Math.min(options.maxItems, queueCatalog[name].group?.maxItems ?? 1));
  const maxWeight = options.maxWeight ?? Infinity;
  const weightOf = options.weightOf ?? (() => 1);
  const jobIdOf = queueCatalog[name].jobId as ((p: PayloadOf<N>) => string) | undefined;
  let waiting: Waiting<N>[] = [];
  let byId = new Map<string, Waiting<N>>();
  let weight = 0;
  let timer: NodeJS.Timeout | undefined;
  const jobOptions = options.jobOptions ?? {};
  const inFlight = new Set<Promise<unknown>>();
  /** An add in flight, waited for by flush(). */
  const track = <T>(added: Promise<T>): Promise<T> => {
    const settled = added.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
    return added;
  };
  // Payloads per second: this second's count and the previous one's, weighted by the overlap.
  const minRate = options.minRatePerSecond ?? 0;
  let second = 0;
  let thisSecond = 0;
  let lastSecond = 0;
  const recentRate = (now: number) => {
    const s = Math.floor(now / 1000);
    if (s !== second) {
      lastSecond = s === second + 1 ? thisSecond : 0;
      thisSecond = 0;
      second = s;
    }
    thisSecond++;
    return thisSecond + lastSecond * (1 - (now % 1000) / 1000);
  };

  const send = () => {
    clearTimeout(timer);
    timer = undefined;
    if (waiting.length === 0) return;
    const group = waiting;
    waiting = [];
    byId = new Map();
    weight = 0;
    void track(
      addParsedGroup(
        name,
        target,
        group.map((w) => w.data),
        jobOptions,
      ),
    ).then(
      (job) => group.forEach((w) => w.resolve(job)),
      (error: unknown) => group.forEach((w) => w.reject(error)),
    );
  };

  return {
    add(payload) {
      const data = parsePayload(name, payload);
      const rate = minRate > 0 ? recentRate(Date.now()) : Infinity;
      if (waiting.length === 0 && rate < minRate) return track(addParsedGroup(name, target, [data], jobOptions));
      const id = jobIdOf?.(data);
      const same = id === undefined ? undefined : byId.get(id);
      if (same) return same.done;
      const itemWeight = weightOf(data);
      // Full by weight: what waits goes first, this payload starts the next group.
      if (waiting.length > 0 && weight + itemWeight > maxWeight) send();
      let resolve!: (job: EnqueuedJob) => void;
      let reject!: (error: unknown) => void;
      const done = new Promise<EnqueuedJob>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      const entry: Waiting<N> = { data, done, resolve, reject };
      waiting.push(entry);
      if (id !== undefined) byId.set(id, entry);
      weight += itemWeight;
      if (waiting.length >= maxItems || weight >= maxWeight) send();
      else timer ??= setTimeout(send, options.maxDelayMs);
      return done;
    },
    async flush() {
      send();
      await Promise.all([...inFlight]);
    },
  };
}
