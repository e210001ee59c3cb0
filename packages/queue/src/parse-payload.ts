import { AppError } from "@rpcpulse/config";
import { queueCatalog, type PayloadOf, type QueueName } from "./catalog.js";
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
  const schema = queueCatalog[name].payload;
  const result = schema.safeParse(data);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "(payload)"}: ${issue.message}`);
    throw new AppError("VALIDATION", `Invalid "${name}" job payload: ${problems.join("; ")}`, {
      details: { queue: name, fields: result.error.issues.map((i) => i.path.join(".")) },
    });
  }
  return result.data as PayloadOf<N>;
}
