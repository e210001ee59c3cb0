import { AppError } from "@rpcpulse/config";
import type { z } from "zod";

/**
 * Parse form or JSON fields; the first problem becomes an AppError VALIDATION with a readable
 * message and the field it is about (adapters show it next to that field).
 */
export function parseFields<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path[0] === undefined ? "form" : String(issue.path[0]);
  throw new AppError("VALIDATION", issue?.message ?? "Invalid input.", { details: { field } });
}
