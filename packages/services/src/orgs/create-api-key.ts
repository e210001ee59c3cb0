import { API_KEY_SCOPES, insertApiKey } from "@rpcpulse/db/orgs";
import { z } from "zod";
import { type ServiceContext } from "../context.js";
import { generateApiKey } from "./api-key-format.js";
import { presentApiKey, requireSessionAdmin, type ApiKeyDeps, type ApiKeyView } from "./api-key-view.js";

/** Longest lifetime a key may be given; `null` (no expiry) must be asked for explicitly. */
export const API_KEY_MAX_DAYS = 365;

export const CreateApiKeyInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Enter a name.")
      .max(64)
      .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._:/-]*$/u, "Letters, digits, spaces and . _ : / -"),
    scope: z.enum(API_KEY_SCOPES),
    /** Days until the key stops working (1..365), or null for a key that does not expire. */
    expiresInDays: z.number().int().min(1).max(API_KEY_MAX_DAYS).nullable().default(90),
  })
  .strict();
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;

/** A new key; `key` is the plaintext, returned this once. */
export async function createApiKey(
  deps: ApiKeyDeps,
  ctx: ServiceContext,
  input: unknown,
  now: Date = new Date(),
): Promise<{ key: string; apiKey: ApiKeyView }> {
  requireSessionAdmin(ctx);
  const parsed = CreateApiKeyInput.parse(input);
  const generated = generateApiKey();
  const expiresAt = parsed.expiresInDays === null ? null : new Date(now.getTime() + parsed.expiresInDays * 86_400_000);
  const record = await insertApiKey(deps.sql, {
    organizationId: ctx.organizationId,
    name: parsed.name,
    scope: parsed.scope,
    prefix: generated.prefix,
    secretHash: generated.secretHash,
    createdBy: ctx.userId,
    expiresAt,
  });
  return { key: generated.key, apiKey: presentApiKey(record, now) };
}
