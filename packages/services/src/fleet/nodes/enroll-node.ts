import { insertNodeRow, type NodeRow } from "@rpcpulse/db/fleet";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import type { AgentTokenDeps, IssuedAgentToken } from "../agent-tokens/agent-token-deps.js";
import { createAgentToken } from "../agent-tokens/create-agent-token.js";
import { toNodeFields, unwrapNodeWrite } from "./node-fields.js";

/**
 * Enroll a node (admins and owners) and issue its first agent token, shown once. The network
 * comes from the chain catalogue and the API family must be one its chain speaks.
 */
export async function enrollNode(
  deps: ServiceDeps & AgentTokenDeps,
  ctx: ServiceContext,
  input: unknown,
): Promise<{ node: NodeRow; issued: IssuedAgentToken }> {
  requireRole(ctx, "admin");
  const fields = await toNodeFields(deps, input);
  const node = unwrapNodeWrite(await insertNodeRow(deps.prisma, { organizationId: ctx.organizationId, ...fields }));
  const issued = await createAgentToken(deps, ctx, { nodeId: node.id });
  return { node, issued };
}
