import { AppError } from "@rpcpulse/config";
import { z } from "zod";

const Uuid = z.string().uuid();

/** Whether `id` is a well-formed uuid (an input that may be an id or something else, a URL say). */
export function isUuid(id: unknown): id is string {
  return Uuid.safeParse(id).success;
}

/** A malformed id names nothing: NOT_FOUND, exactly like an id of another organization. */
export function requireUuid(id: string, what: string): string {
  if (!isUuid(id)) throw new AppError("NOT_FOUND", `${what} not found.`);
  return id;
}
