import { AppError } from "@rpcpulse/config";
import { revokeApiKeyRow } from "@rpcpulse/db/orgs";
import { z } from "zod";
import { type ServiceContext } from "../context.js";
import { presentApiKey, requireSessionAdmin, type ApiKeyDeps, type ApiKeyView } from "./api-key-view.js";

/** Revoke at once: the next request with the key is refused (keys are looked up on every request). */
export async function revokeApiKey(
  deps: ApiKeyDeps,
  ctx: ServiceContext,
  input: { keyId: string },
  now: Date = new Date(),
): Promise<ApiKeyView> {
  requireSessionAdmin(ctx);
  const keyId = z.string().uuid().safeParse(input.keyId);
  if (!keyId.success) throw new AppError("NOT_FOUND", "API key not found.");
  const record = await revokeApiKeyRow(deps.sql, { organizationId: ctx.organizationId, keyId: keyId.data, now });
  if (!record) throw new AppError("NOT_FOUND", "API key not found.");
  return presentApiKey(record, now);
}
