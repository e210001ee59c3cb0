import { AppError } from "@rpcpulse/config";
import { deleteNodeRow } from "@rpcpulse/db/fleet";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import type { AgentTokenDeps } from "../agent-tokens/agent-token-deps.js";
import { notifyAgentTokenChanges } from "../agent-tokens/notify-agent-token-changes.js";

/**
 * Delete a node and its tokens (admins and owners). Its time series age out with retention. Every
 * token of the node is announced as changed (notifyChanged), so each ingest process refuses it
 * from the next request on instead of serving its cached copy.
 */
export async function deleteNode(
  deps: ServiceDeps & Pick<AgentTokenDeps, "notifyChanged">,
  ctx: ServiceContext,
  input: { nodeId: string },
): Promise<void> {
  requireRole(ctx, "admin");
  const deleted = await deleteNodeRow(deps.prisma, { organizationId: ctx.organizationId, nodeId: input.nodeId });
  if (!deleted) throw new AppError("NOT_FOUND", "Node not found.");
  await notifyAgentTokenChanges(
    deps,
    deleted.tokens.map((t) => t.prefix),
  );
}
