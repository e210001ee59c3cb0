import { AppError } from "@rpcpulse/config";
import type { z } from "zod";

/**
 * `schema.parse(data)` for a queue's payload, or AppError("VALIDATION") whose message names the queue
 * and every bad field, e.g. `Invalid "ingest" job payload: batchSeq: Too small...`. The one wording of a
 * refused payload: parsePayload and the parsers built for another metric catalogue both end here.
 */
export function parsePayloadWithSchema<S extends z.ZodType>(queue: string, schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "(payload)"}: ${issue.message}`);
    throw new AppError("VALIDATION", `Invalid "${queue}" job payload: ${problems.join("; ")}`, {
      details: { queue, fields: result.error.issues.map((i) => i.path.join(".")) },
    });
  }
  return result.data;
}
