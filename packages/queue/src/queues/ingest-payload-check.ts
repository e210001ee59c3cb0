import { metricFieldsByKindOf, NODE_SAMPLE_METRIC_CATALOGUE, type NodeSampleMetric } from "@rpcpulse/domain";
import { parsePayloadWithSchema } from "../parse-payload-with-schema.js";
import {
  ingestBatchFieldsOf,
  ingestBatchPayloadOf,
  isBooleanColumn,
  isConnsColumn,
  isIpColumn,
  isNumberColumn,
  isSampleIndexColumn,
  isTimeColumn,
  type IngestBatchPayloadOf,
} from "./ingest.queue.js";

/**
 * The ingest payload check of the hot path (every batch on enqueue and again in the worker). The
 * zod schema (IngestBatchPayload) stays the contract: this builds the value zod would return, with
 * the same column predicates, each scalar and optional group checked by its own zod field schema,
 * and the two cross-field checks, but without zod's object machinery around the 45 columns.
 * It answers undefined whenever it does not accept, and the caller then asks zod, which words the
 * issues; it never accepts what zod refuses (test/ingest-payload-check.test.ts, mutation corpus).
 * It is built for a metric catalogue (createIngestPayloadCheck): checkIngestBatchPayload is the real
 * catalogue's.
 */

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Strings already accepted by a field's schema (ids and versions repeat from batch to batch). */
function memoised(check: (v: string) => boolean, max = 4_096): (v: unknown) => boolean {
  const seen = new Set<string>();
  return (v) => {
    if (typeof v !== "string") return false;
    if (seen.has(v)) return true;
    if (!check(v)) return false;
    if (seen.size >= max) seen.clear();
    seen.add(v);
    return true;
  };
}

const STRING_KEYS = new Set(["organizationId", "nodeId", "networkId", "agentVersion"] as const);

/**
 * Sufficient conditions only: a value passing one is accepted by the field's schema (batchSeq:
 * int, >= 0, <= MAX_SAFE_INTEGER; receivedAtMs: int, > 0; clockSkewMs: int; clientVersion: a string of
 * at most 256 characters, or null); a value failing it is left to the schema.
 */
const SAFE_INTEGER_KEYS: Partial<Record<string, (v: unknown) => boolean>> = {
  batchSeq: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  receivedAtMs: (v) => Number.isSafeInteger(v) && (v as number) > 0,
  clockSkewMs: (v) => Number.isSafeInteger(v),
};
const isShortStringOrNull = (v: unknown) => v === null || (typeof v === "string" && v.length <= 256);

function remoteIpColumns(v: unknown, samples: number): Record<string, unknown> | undefined {
  if (!isPlainObject(v)) return undefined;
  const { sample, ip, conns } = v;
  if (!isSampleIndexColumn(sample) || !isIpColumn(ip) || !isConnsColumn(conns)) return undefined;
  if (sample.length !== ip.length || ip.length !== conns.length) return undefined;
  for (const i of sample) if (!(i < samples)) return undefined;
  return { sample, ip, conns };
}

/**
 * The payload check of a metric catalogue: ingestBatchPayloadOf(catalogue).parse(data) when that
 * succeeds (the same value), else undefined.
 */
export function createIngestPayloadCheck<const C extends readonly NodeSampleMetric[]>(
  catalogue: C,
): (data: unknown) => IngestBatchPayloadOf<C> | undefined {
  const fields = ingestBatchFieldsOf(catalogue as readonly NodeSampleMetric[]).shape;
  const keys = Object.keys(fields) as (keyof typeof fields)[];
  const { numeric, boolean } = metricFieldsByKindOf(catalogue as readonly NodeSampleMetric[]);
  const stringChecks = Object.fromEntries(
    [...STRING_KEYS].map((k) => [k, memoised((v) => fields[k].safeParse(v).success)]),
  ) as Record<string, (v: unknown) => boolean>;

  function sampleColumns(v: unknown): Record<string, unknown> | undefined {
    if (!isPlainObject(v)) return undefined;
    const time = v.time;
    if (!isTimeColumn(time)) return undefined;
    const n = time.length;
    const out: Record<string, unknown> = { time };
    for (const field of numeric) {
      const column = v[field];
      if (!isNumberColumn(column) || column.length !== n) return undefined;
      out[field] = column;
    }
    for (const field of boolean) {
      const column = v[field];
      if (!isBooleanColumn(column) || column.length !== n) return undefined;
      out[field] = column;
    }
    return out;
  }

  return function checkIngestPayload(data: unknown): IngestBatchPayloadOf<C> | undefined {
    if (!isPlainObject(data)) return undefined;
    const out: Record<string, unknown> = {};
    let samples: Record<string, unknown> | undefined;
    for (const key of keys) {
      const value = data[key];
      if (key === "samples") {
        if (!(samples = sampleColumns(value))) return undefined;
        out.samples = samples;
      } else if (key === "remoteIps") {
        // samples comes first in the shape, so its length is known here.
        const columns = remoteIpColumns(value, (samples!.time as number[]).length);
        if (!columns) return undefined;
        out.remoteIps = columns;
      } else if (STRING_KEYS.has(key as never)) {
        if (!stringChecks[key]!(value)) return undefined;
        out[key] = value;
      } else if (SAFE_INTEGER_KEYS[key]?.(value) || (key === "clientVersion" && isShortStringOrNull(value))) {
        // Values these fields' schemas accept whatever else they check (anything else goes to zod below).
        out[key] = value;
      } else {
        // As zod's object does: an absent optional field stays absent, one present as undefined stays.
        const result = fields[key].safeParse(value);
        if (!result.success) return undefined;
        if (result.data !== undefined || key in data) out[key] = result.data;
      }
    }
    return out as IngestBatchPayloadOf<C>;
  };
}

/** IngestBatchPayload.parse(data) when that succeeds (the same value), else undefined. */
export const checkIngestBatchPayload = createIngestPayloadCheck(NODE_SAMPLE_METRIC_CATALOGUE);

/**
 * The "ingest" job parser of a metric catalogue: its fast check, else its schema, which words the
 * refusal as parsePayload does (parsePayload("ingest", …) is the real catalogue's).
 */
export function createIngestPayloadParser<const C extends readonly NodeSampleMetric[]>(
  catalogue: C,
): (data: unknown) => IngestBatchPayloadOf<C> {
  const check = createIngestPayloadCheck(catalogue);
  const schema = ingestBatchPayloadOf(catalogue);
  return (data) => check(data) ?? (parsePayloadWithSchema("ingest", schema, data) as IngestBatchPayloadOf<C>);
}
