import { AppError } from "@rpcpulse/config";
import {
  deleteNodeRow,
  findNetworkBySlug,
  findOrganizationNodeRow,
  insertNodeRow,
  updateNodeRow,
  type NodeFields,
  type NodeRow,
  type NodeWriteResult,
} from "@rpcpulse/db/fleet";
import { requireRole, type ServiceContext, type ServiceDeps } from "../context.js";
import {
  createAgentToken,
  notifyAgentTokenChanges,
  type AgentTokenDeps,
  type IssuedAgentToken,
} from "./manage-agent-tokens.js";
import { NodeInput } from "./node-input.js";

async function toNodeFields(deps: ServiceDeps, input: unknown): Promise<NodeFields> {
  const parsed = NodeInput.parse(input);
  const network = await findNetworkBySlug(deps.prisma, parsed.network);
  if (!network) throw new AppError("VALIDATION", "Unknown network.", { details: { field: "network" } });
  if (!network.apiFamilies.includes(parsed.apiFamily)) {
    throw new AppError(
      "VALIDATION",
      `A ${network.chainSlug} node speaks ${network.apiFamilies.join(" or ")}, not ${parsed.apiFamily}.`,
      { details: { field: "apiFamily" } },
    );
  }
  return {
    networkId: network.id,
    apiFamily: parsed.apiFamily,
    clientName: parsed.clientName,
    clientVersion: parsed.clientVersion,
    name: parsed.name,
    localRpcUrl: parsed.localRpcUrl,
    publicUrl: parsed.publicUrl,
    region: parsed.region,
  };
}

function unwrap(result: NodeWriteResult): NodeRow {
  if (result.ok) return result.node;
  if (result.reason === "name-taken") {
    throw new AppError("CONFLICT", "Another node of this organization has that name.", { details: { field: "name" } });
  }
  throw new AppError("NOT_FOUND", "Node not found.");
}

/** One node of the context's organization (any member); NOT_FOUND for other organizations' ids. */
export async function getNode(deps: ServiceDeps, ctx: ServiceContext, input: { nodeId: string }): Promise<NodeRow> {
  const node = await findOrganizationNodeRow(deps.prisma, { organizationId: ctx.organizationId, nodeId: input.nodeId });
  if (!node) throw new AppError("NOT_FOUND", "Node not found.");
  return node;
}

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
  const node = unwrap(await insertNodeRow(deps.prisma, { organizationId: ctx.organizationId, ...fields }));
  const issued = await createAgentToken(deps, ctx, { nodeId: node.id });
  return { node, issued };
}

/** Edit a node's settings (admins and owners). */
export async function updateNode(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { nodeId: string; fields: unknown },
): Promise<NodeRow> {
  requireRole(ctx, "admin");
  await getNode(deps, ctx, { nodeId: input.nodeId });
  const fields = await toNodeFields(deps, input.fields);
  return unwrap(
    await updateNodeRow(deps.prisma, { organizationId: ctx.organizationId, nodeId: input.nodeId, ...fields }),
  );
}

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
