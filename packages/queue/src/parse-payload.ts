import { queueCatalog, type PayloadOf, type QueueName } from "./catalog.js";
import { parsePayloadWithSchema } from "./parse-payload-with-schema.js";
import { checkIngestBatchPayload } from "./queues/ingest-payload-check.js";

/** Hand-written checks that give the schema's value or undefined (then the schema decides and words it). */
const FAST_CHECKS: { [N in QueueName]?: (data: unknown) => PayloadOf<N> | undefined } = {
  ingest: checkIngestBatchPayload,
};

/**
 * Validate `data` against the queue's contract. Throws AppError("VALIDATION") whose message names
 * the queue and every bad field, e.g. `Invalid "ingest" job payload: batchSeq: Too small...`.
 */
export function parsePayload<N extends QueueName>(name: N, data: unknown): PayloadOf<N> {
  const fast = (FAST_CHECKS[name] as ((data: unknown) => PayloadOf<N> | undefined) | undefined)?.(data);
  if (fast !== undefined) return fast;
  return parsePayloadWithSchema(name, queueCatalog[name].payload, data) as PayloadOf<N>;
}
