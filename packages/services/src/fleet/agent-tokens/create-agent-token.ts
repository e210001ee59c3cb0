import { insertAgentToken } from "@rpcpulse/db/fleet";
import { requireRole, type ServiceContext } from "../../context.js";
import { generateAgentToken } from "../token-format.js";
import { NodeRef, requireNode, type AgentTokenDeps, type IssuedAgentToken } from "./agent-token-deps.js";

/** A new token for a node; other tokens stay as they are. */
export async function createAgentToken(
  deps: AgentTokenDeps,
  ctx: ServiceContext,
  input: { nodeId: string },
): Promise<IssuedAgentToken> {
  requireRole(ctx, "admin");
  const { nodeId } = NodeRef.parse(input);
  await requireNode(deps, ctx, nodeId);
  const generated = generateAgentToken();
  const record = await insertAgentToken(deps.sql, {
    nodeId,
    prefix: generated.prefix,
    secretHash: generated.secretHash,
  });
  return { token: generated.token, record };
}
