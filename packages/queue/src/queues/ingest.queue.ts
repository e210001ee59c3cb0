import { z } from "zod";
import { metricFieldsByKindOf, NODE_SAMPLE_METRIC_CATALOGUE, type NodeSampleMetric } from "@rpcpulse/domain";
import { EntityId } from "../ids.js";
import { defineQueue } from "../define-queue.js";

/**
 * One accepted agent batch, carried whole: the ingest API needs only Redis to accept a batch
 * (PostgreSQL may be down; the job waits and retries until it is back). The batch travels
 * normalised into columns (one array per metric, one entry per sample), about 0.5 KB per sample:
 * the worker writes it without re-parsing the wire format. Bounded by the wire limits:
 * at most MAX_INGEST_SAMPLES samples and MAX_INGEST_REMOTE_IPS remote-IP rows.
 * Rolling deploys: new fields are added as `.optional()`; unknown fields are stripped.
 */

export const MAX_INGEST_SAMPLES = 360;
export const MAX_INGEST_REMOTE_IPS = MAX_INGEST_SAMPLES * 100;

/**
 * Metric columns per sample, numeric (and time) and boolean: derived once from the node-sample
 * metric catalogue (@rpcpulse/domain), in its order, so they match @rpcpulse/db/fleet's NODE_SAMPLE_METRICS.
 */
export const { numeric: INGEST_NUMERIC_METRICS, boolean: INGEST_BOOLEAN_METRICS } =
  metricFieldsByKindOf(NODE_SAMPLE_METRIC_CATALOGUE);

// Plain loops instead of per-element zod schemas: a max batch has ~16k values and this check
// runs on enqueue and again in the worker. The predicates are shared with the hand-written check
// of a whole payload (ingest-payload-check.ts), so both decide every column alike.
export function isNumberColumn(v: unknown): v is (number | null)[] {
  return Array.isArray(v) && v.length <= MAX_INGEST_SAMPLES && v.every((x) => x === null || Number.isFinite(x));
}
export function isBooleanColumn(v: unknown): v is (boolean | null)[] {
  return Array.isArray(v) && v.length <= MAX_INGEST_SAMPLES && v.every((x) => x === null || typeof x === "boolean");
}
export function isTimeColumn(v: unknown): v is number[] {
  return (
    Array.isArray(v) &&
    v.length >= 1 &&
    v.length <= MAX_INGEST_SAMPLES &&
    v.every((x) => Number.isSafeInteger(x) && x > 0)
  );
}
export function isSampleIndexColumn(v: unknown): v is number[] {
  return Array.isArray(v) && v.length <= MAX_INGEST_REMOTE_IPS && v.every((x) => Number.isInteger(x) && x >= 0);
}
export function isIpColumn(v: unknown): v is string[] {
  return (
    Array.isArray(v) && v.length <= MAX_INGEST_REMOTE_IPS && v.every((x) => typeof x === "string" && x.length <= 45)
  );
}
export const isConnsColumn = isSampleIndexColumn;

const numberColumn = z.custom<(number | null)[]>(isNumberColumn, {
  message: `must be an array of at most ${MAX_INGEST_SAMPLES} finite numbers or nulls`,
});
const booleanColumn = z.custom<(boolean | null)[]>(isBooleanColumn, {
  message: `must be an array of at most ${MAX_INGEST_SAMPLES} booleans or nulls`,
});
const timeColumn = z.custom<number[]>(isTimeColumn, {
  message: `must be 1-${MAX_INGEST_SAMPLES} epoch-millisecond integers`,
});

/** Fields of a catalogue's numeric (and time) metrics and of its boolean ones. */
type NumericFieldOf<C extends readonly NodeSampleMetric[]> = Exclude<C[number], { kind: "bool" }>["field"];
type BooleanFieldOf<C extends readonly NodeSampleMetric[]> = Extract<C[number], { kind: "bool" }>["field"];
type NumericShapeOf<C extends readonly NodeSampleMetric[]> = { [K in NumericFieldOf<C>]: typeof numberColumn };
type BooleanShapeOf<C extends readonly NodeSampleMetric[]> = { [K in BooleanFieldOf<C>]: typeof booleanColumn };
type Flatten<T> = { [K in keyof T]: T[K] };
/**
 * The samples' columns schema of a catalogue: one column per field of a catalogue typed `as const`
 * (the real one); a catalogue whose fields are just strings gets `time` and a Record of the others.
 */
export type IngestSampleColumnsOf<C extends readonly NodeSampleMetric[]> = string extends C[number]["field"]
  ? z.ZodObject<{ time: typeof timeColumn }, z.core.$catchall<typeof numberColumn | typeof booleanColumn>>
  : z.ZodObject<Flatten<{ time: typeof timeColumn } & NumericShapeOf<C> & BooleanShapeOf<C>>, z.core.$strip>;

/** Every column as long as `time`. */
function checkColumnLengths(columns: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const n = (columns.time as unknown[]).length;
  for (const [field, values] of Object.entries(columns)) {
    if ((values as unknown[]).length !== n) {
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `has ${(values as unknown[]).length} entries, time has ${n}`,
      });
    }
  }
}

/**
 * The samples' columns of a job for a metric catalogue: `time`, then each metric's column in the
 * catalogue's order (numeric and time ones, then the boolean ones), every column as long as `time`.
 */
export function ingestSampleColumnsOf<const C extends readonly NodeSampleMetric[]>(
  catalogue: C,
): IngestSampleColumnsOf<C> {
  const { numeric, boolean } = metricFieldsByKindOf(catalogue);
  const shape: Record<string, z.ZodType> = { time: timeColumn };
  for (const field of numeric) shape[field] = numberColumn;
  for (const field of boolean) shape[field] = booleanColumn;
  // The shape is built from the catalogue at run time; its static type is the catalogue's (IngestSampleColumnsOf).
  return z.object(shape).superRefine(checkColumnLengths) as never;
}

export const IngestSampleColumns = ingestSampleColumnsOf(NODE_SAMPLE_METRIC_CATALOGUE);

export const IngestRemoteIpColumns = z
  .object({
    sample: z.custom<number[]>(isSampleIndexColumn, { message: "must be sample indexes" }),
    ip: z.custom<string[]>(isIpColumn, { message: "must be IP address strings" }),
    conns: z.custom<number[]>(isConnsColumn, { message: "must be connection counts" }),
  })
  .refine((r) => r.sample.length === r.ip.length && r.ip.length === r.conns.length, {
    message: "sample, ip and conns must have the same length",
  });

const uuid = z.string().uuid();
/** Same shape as the wire's installId: safe inside a BullMQ job id and a Redis key. */
const InstallId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);

/** The agent's settings group as normalised by the ingest API (bounded: the wire limits apply upstream). */
export const IngestReportedSettings = z.object({
  tcpTwReuse: z.number().int().nullable().optional(),
  tcpFinTimeout: z.number().int().nullable().optional(),
  somaxconn: z.number().int().nullable().optional(),
  tcpMaxSynBacklog: z.number().int().nullable().optional(),
  tcpMaxTwBuckets: z.number().int().nullable().optional(),
  ipLocalPortRange: z
    .object({ low: z.number().int(), high: z.number().int(), size: z.number().int() })
    .nullable()
    .optional(),
  tcpTwRecycleLines: z
    .array(z.object({ file: z.string().max(4096), line: z.number().int(), text: z.string().max(1024) }))
    .max(64)
    .optional(),
  listeningPorts: z.array(z.number().int().min(0).max(65_535)).max(1024).nullable().optional(),
  shmTotalBytes: z.number().nonnegative().nullable().optional(),
  /** Whitelisted command-line flags of the node process (wire settings.nodeArgs; NODE_ARG_FLAGS). */
  nodeArgs: z
    .array(z.object({ flag: z.string().max(64), value: z.string().max(256) }))
    .max(32)
    .nullable()
    .optional(),
  /** The busiest outbound destinations of the newest sample that reported them (epoch ms). */
  outbound: z
    .object({
      time: z.number().int().positive(),
      top: z
        .array(
          z.object({
            ip: z.string().max(45),
            port: z.number().int().min(0).max(65_535),
            sockets: z.number().int().nonnegative(),
            established: z.number().int().nonnegative(),
            timeWait: z.number().int().nonnegative(),
          }),
        )
        .max(100),
    })
    .optional(),
});
export type IngestReportedSettings = z.infer<typeof IngestReportedSettings>;

/** Probe results an opted-in agent sent (vantage point), as the worker stores them. Times in epoch ms. */
export const MAX_INGEST_VANTAGE_PROBES = 200;
const ms = z.number().nonnegative().max(600_000).nullable();
export const IngestVantageProbe = z.object({
  time: z.number().int().positive(),
  endpointId: uuid,
  ok: z.boolean(),
  httpStatus: z.number().int().min(0).max(999).nullable(),
  errorClass: z.string().max(64).nullable(),
  errorMessage: z.string().max(512).nullable(),
  rateLimited: z.boolean(),
  responseBytes: z.number().int().nonnegative(),
  headBlock: z.number().int().nonnegative().nullable(),
  headTime: z.number().int().positive().nullable(),
  finalizedBlock: z.number().int().nonnegative().nullable(),
  dnsMs: ms,
  connectMs: ms,
  tlsMs: ms,
  ttfbMs: ms,
  totalMs: ms,
});
export type IngestVantageProbe = z.infer<typeof IngestVantageProbe>;
export const IngestVantage = z.object({
  region: z.string().min(2).max(32),
  probes: z.array(IngestVantageProbe).max(MAX_INGEST_VANTAGE_PROBES),
});
export type IngestVantage = z.infer<typeof IngestVantage>;

/**
 * One agent sample's Ethereum consensus-client reading (wire group `beacon`, Beacon API), with the
 * server's check of the execution client it drives against the node's own head (see @rpcpulse/services
 * normalise-beacon.ts). Written to beacon_samples and node_beacon_latest.
 */
const slot = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable();
export const IngestBeaconRow = z.object({
  time: z.number().int().positive(),
  ok: z.boolean(),
  headSlot: slot,
  wallSlot: slot,
  slotsBehind: z.number().int().min(-1_000_000).max(1_000_000_000).nullable(),
  syncDistance: slot,
  syncing: z.boolean().nullable(),
  optimistic: z.boolean().nullable(),
  elOffline: z.boolean().nullable(),
  peers: z.number().int().nonnegative().nullable(),
  version: z.string().max(256).nullable(),
  execBlock: slot,
  execHash: z.string().max(66).nullable(),
  elBlock: slot,
  elCheck: z.enum(["match", "hash-mismatch", "el-ahead", "el-offline"]).nullable(),
  error: z.string().max(512).nullable(),
});
export type IngestBeaconRow = z.infer<typeof IngestBeaconRow>;

/**
 * A job's fields for a metric catalogue, before the cross-field check (ingest-payload-check.ts reads
 * its shape); only `samples` depends on the catalogue.
 */
export function ingestBatchFieldsOf<const C extends readonly NodeSampleMetric[]>(catalogue: C) {
  return z.object({
    organizationId: EntityId,
    nodeId: uuid,
    networkId: uuid,
    /** Per-install monotonic sequence from the agent; with nodeId and the install it is the idempotency key. */
    batchSeq: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    /** The agent install's random id (wire `installId`); absent for agents that predate it. */
    installId: InstallId.optional(),
    /** Server receive time (authoritative for liveness), epoch ms. */
    receivedAtMs: z.number().int().positive(),
    /** Agent clock minus server clock at receipt (from the batch's sentAt), ms. */
    clockSkewMs: z.number().int(),
    agentVersion: z.string().min(1).max(32),
    clientVersion: z.string().max(256).nullable(),
    samples: ingestSampleColumnsOf(catalogue),
    remoteIps: IngestRemoteIpColumns,
    /** Kernel settings the agent reported last in the batch (wire `settings` group); read by the tuning advisor. */
    settings: IngestReportedSettings.nullable().optional(),
    /** Ethereum nodes with a consensus client (agent --beacon-url): one row per sample that carried it. */
    beacon: z.array(IngestBeaconRow).max(MAX_INGEST_SAMPLES).optional(),
    /** Opt-in vantage probing: results already checked against the listed endpoints by the ingest API. */
    vantage: IngestVantage.optional(),
  });
}

/** A job's payload for a metric catalogue: its fields and the remote-IP rows' check against the samples. */
export function ingestBatchPayloadOf<const C extends readonly NodeSampleMetric[]>(catalogue: C) {
  const fields = ingestBatchFieldsOf(catalogue);
  return fields.refine(remoteIpsWithinSamples as (p: z.output<typeof fields>) => boolean, {
    message: "remoteIps.sample points past the last sample",
    path: ["remoteIps", "sample"],
  });
}
function remoteIpsWithinSamples(p: { remoteIps: { sample: number[] }; samples: { time: number[] } }): boolean {
  return p.remoteIps.sample.every((i) => i < p.samples.time.length);
}
/** A job's payload as a catalogue's schema returns it (a catalogue typed `as const` gives every column). */
export type IngestBatchPayloadOf<C extends readonly NodeSampleMetric[]> = z.infer<
  ReturnType<typeof ingestBatchPayloadOf<C>>
>;

/** The payload's fields and the payload of the real catalogue. */
export const IngestBatchFields = ingestBatchFieldsOf(NODE_SAMPLE_METRIC_CATALOGUE);
export const IngestBatchPayload = ingestBatchPayloadOf(NODE_SAMPLE_METRIC_CATALOGUE);
export type IngestBatchPayload = z.infer<typeof IngestBatchPayload>;

/**
 * Which run of numbering a batch belongs to: the agent's install id, or, for agents that predate
 * it, the time of the batch's first sample ("t<epoch ms>"). A reinstalled agent (state directory
 * lost, batchSeq back at 1) thus never collides with what its previous install sent: a new install
 * id, or for an old agent new sample times. A retransmission of the same batch keeps both.
 */
export function ingestBatchStream(p: { installId?: string | undefined; samples: { time: number[] } }): string {
  return p.installId ?? `t${p.samples.time[0] ?? 0}`;
}

/** BullMQ job id of a batch: one job per (node, stream, batchSeq), so a replay is never queued twice. */
export function ingestJobId(nodeId: string, stream: string, batchSeq: number): string {
  return `ingest-${nodeId}-${stream}-${batchSeq}`;
}

/**
 * Retry schedule of an ingest job for errors other than "PostgreSQL is away" (those never use up
 * attempts: the worker waits them out, see apps/worker's ingest processor). After the last attempt
 * the job is parked in the failed set, never deleted (removeOnFail: false), counted by the ingest
 * API's backpressure and re-driven with `npm run ingest:redrive`.
 */
export const INGEST_JOB_ATTEMPTS = 12;
export const INGEST_JOB_BACKOFF_MS = 1_000;

/**
 * An ingest process adds the batches it accepts within a few milliseconds as one group job
 * (job name "ingest-batches", `{ items: [batch, ...] }`), at most this many batches; the worker
 * writes every item as its own batch (one flush for all) and completes the job once all are
 * committed. A group has no job id of its own: a batch re-sent after its group was added lands in
 * another job and the writer's ON CONFLICT DO NOTHING keeps it stored once. A worker that
 * predates group jobs refuses them as invalid payloads: they are parked, not lost, and re-driven
 * after the upgrade (upgrade workers first).
 */
export const MAX_INGEST_GROUP_BATCHES = 256;

export const ingestQueue = defineQueue({
  name: "ingest",
  jobName: "ingest-batch",
  payload: IngestBatchPayload,
  jobId: (p: IngestBatchPayload) => ingestJobId(p.nodeId, ingestBatchStream(p), p.batchSeq),
  tenantOf: (p: IngestBatchPayload) => p.organizationId,
  group: { jobName: "ingest-batches", maxItems: MAX_INGEST_GROUP_BATCHES },
  defaultJobOptions: {
    // 1 s doubling: 12 attempts span about 68 minutes of a persistent (non-outage) error; then the
    // job is parked, not deleted: an accepted batch leaves Redis only once its rows are committed.
    attempts: INGEST_JOB_ATTEMPTS,
    backoff: { type: "exponential", delay: INGEST_JOB_BACKOFF_MS, jitter: 0.2 },
    removeOnComplete: { age: 3_600, count: 10_000 },
    removeOnFail: false,
  },
});
