import { z } from "zod";

/**
 * Identifier carried in a job payload (cuid/uuid/slug-like). Bounded and free of ':' so it can
 * be part of a BullMQ job id and never bloats a payload.
 */
export const EntityId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "must contain only letters, digits, '_' or '-'");
export type EntityId = z.infer<typeof EntityId>;
