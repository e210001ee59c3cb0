import { updateNodeRow, type NodeRow } from "@rpcpulse/db/fleet";
import { requireRole, type ServiceContext, type ServiceDeps } from "../../context.js";
import { getNode } from "./get-node.js";
import { toNodeFields, unwrapNodeWrite } from "./node-fields.js";

/** Edit a node's settings (admins and owners). */
export async function updateNode(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { nodeId: string; fields: unknown },
): Promise<NodeRow> {
  requireRole(ctx, "admin");
  await getNode(deps, ctx, { nodeId: input.nodeId });
  const fields = await toNodeFields(deps, input.fields);
  return unwrapNodeWrite(
    await updateNodeRow(deps.prisma, { organizationId: ctx.organizationId, nodeId: input.nodeId, ...fields }),
  );
}
