import { AppError } from "@rpcpulse/config";
import type { AgentTokenRecord } from "@rpcpulse/db/fleet";
import { requireRole, type ServiceContext } from "../../context.js";
import type { AgentTokenDeps } from "./agent-token-deps.js";
import { listAgentTokens } from "./list-agent-tokens.js";
import { revokeAgentToken } from "./revoke-agent-token.js";

/** Revoke one token named under its node (the API's URL shape); NOT_FOUND unless the token is that node's. */
export async function revokeAgentTokenOfNode(
  deps: AgentTokenDeps,
  ctx: ServiceContext,
  input: { nodeId: string; tokenId: string },
): Promise<AgentTokenRecord> {
  requireRole(ctx, "admin");
  const tokens = await listAgentTokens(deps, ctx, { nodeId: input.nodeId });
  if (!tokens.some((t) => t.id === input.tokenId && t.revokedAt === null)) {
    throw new AppError("NOT_FOUND", "Token not found.");
  }
  return revokeAgentToken(deps, ctx, { tokenId: input.tokenId });
}
