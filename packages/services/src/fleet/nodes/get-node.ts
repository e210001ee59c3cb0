import { AppError } from "@rpcpulse/config";
import { findOrganizationNodeRow, type NodeRow } from "@rpcpulse/db/fleet";
import type { ServiceContext, ServiceDeps } from "../../context.js";

/** One node of the context's organization (any member); NOT_FOUND for other organizations' ids. */
export async function getNode(deps: ServiceDeps, ctx: ServiceContext, input: { nodeId: string }): Promise<NodeRow> {
  const node = await findOrganizationNodeRow(deps.prisma, { organizationId: ctx.organizationId, nodeId: input.nodeId });
  if (!node) throw new AppError("NOT_FOUND", "Node not found.");
  return node;
}
