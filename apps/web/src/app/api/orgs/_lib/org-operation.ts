import type { z } from "zod";

export type Access = "read" | "write" | "session";
export type Method = "get" | "post" | "put" | "patch" | "delete";

/** One operation of the organization API, as the OpenAPI document describes it. */
export interface Operation {
  method: Method;
  path: string;
  id: string;
  summary: string;
  /** read: any key or member; write: a write key or an admin; session: signed-in members only. */
  access: Access;
  body?: z.ZodType | Record<string, unknown>;
  status?: number;
}
