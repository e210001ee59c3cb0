import { AppError } from "@rpcpulse/config";
import { z } from "zod";

const Uuid = z.string().uuid();

/** A malformed id names nothing: NOT_FOUND, exactly like an id of another organization. */
export function requireUuid(id: string, what: string): string {
  if (!Uuid.safeParse(id).success) throw new AppError("NOT_FOUND", `${what} not found.`);
  return id;
}
