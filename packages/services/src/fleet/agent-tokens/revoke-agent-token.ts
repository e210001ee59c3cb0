import { AppError } from "@rpcpulse/config";
import { revokeAgentTokenRow, type AgentTokenRecord } from "@rpcpulse/db/fleet";
import { z } from "zod";
import { requireRole, type ServiceContext } from "../../context.js";
import type { AgentTokenDeps } from "./agent-token-deps.js";
import { notifyAgentTokenChanges } from "./notify-agent-token-changes.js";

/** Revoke a token at once (with notifyChanged, every ingest process refuses it from its next request). */
export async function revokeAgentToken(
  deps: AgentTokenDeps,
  ctx: ServiceContext,
  input: { tokenId: string; now?: Date },
): Promise<AgentTokenRecord> {
  requireRole(ctx, "admin");
  const tokenId = z.string().uuid().safeParse(input.tokenId);
  if (!tokenId.success) throw new AppError("NOT_FOUND", "Token not found.");
  const record = await revokeAgentTokenRow(deps.sql, {
    organizationId: ctx.organizationId,
    tokenId: tokenId.data,
    now: input.now ?? new Date(),
  });
  if (!record) throw new AppError("NOT_FOUND", "Token not found.");
  await notifyAgentTokenChanges(deps, [record.prefix]);
  return record;
}
