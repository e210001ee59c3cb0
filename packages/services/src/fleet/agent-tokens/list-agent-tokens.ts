import { AppError } from "@rpcpulse/config";
import { listAgentTokenRows, type AgentTokenRecord } from "@rpcpulse/db/fleet";
import type { ServiceContext } from "../../context.js";
import { NodeRef, requireNode, type AgentTokenDeps } from "./agent-token-deps.js";

/** Token metadata of a node (never the secret or its hash). Any member may read it. */
export async function listAgentTokens(
  deps: Pick<AgentTokenDeps, "sql">,
  ctx: ServiceContext,
  input: { nodeId: string },
): Promise<AgentTokenRecord[]> {
  const parsed = NodeRef.safeParse(input);
  if (!parsed.success) throw new AppError("NOT_FOUND", "Node not found.");
  await requireNode(deps, ctx, parsed.data.nodeId);
  return listAgentTokenRows(deps.sql, { organizationId: ctx.organizationId, nodeId: parsed.data.nodeId });
}
