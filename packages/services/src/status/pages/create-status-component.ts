import { AppError } from "@rpcpulse/config";
import { findListableEndpoint, findOrgNodeName, insertStatusComponent } from "@rpcpulse/db/status";
import { listProducerStatuses } from "@rpcpulse/db/producers";
import { requireRole, type ServiceContext } from "../../context.js";
import { requireUuid } from "../../ids.js";
import { findOrgConsensusNode } from "../consensus-components.js";
import { invalidateStatusSnapshots } from "../snapshot-cache.js";
import { isUniqueViolation } from "./status-page-input.js";
import { type ComponentDeps, ComponentInput, type ComponentKind, NOT_FOUND_TEXT } from "./status-component-input.js";

/** A producer (witness or validator) the organization registered, named "<account> (<kind>)". */
async function findOrgProducerName(deps: ComponentDeps, organizationId: string, producerId: string) {
  if (!deps.sql) throw new AppError("INTERNAL", "Producer components need the SQL pool.");
  const [p] = await listProducerStatuses(deps.sql, { organizationIds: [organizationId], ids: [producerId] });
  return p ? { id: p.id, name: `${p.account} (${p.kind})` } : null;
}

/**
 * List a node, a producer or an Ethereum node's consensus client of the organization, or any listed public
 * directory endpoint (community pages). Another organization's node or producer is NOT_FOUND, like one
 * that does not exist.
 */
export async function createStatusComponent(
  deps: ComponentDeps,
  ctx: ServiceContext,
  input: { pageId: string; fields: unknown },
): Promise<{ id: string }> {
  requireRole(ctx, "admin");
  const fields = ComponentInput.parse(input.fields);
  requireUuid(input.pageId, "Status page");
  const [kind, refId] = fields.ref.toLowerCase().split(":") as [ComponentKind, string];
  const target =
    kind === "node"
      ? await findOrgNodeName(deps.prisma, { organizationId: ctx.organizationId, nodeId: refId })
      : kind === "endpoint"
        ? await findListableEndpoint(deps.prisma, refId)
        : kind === "consensus_client"
          ? await findOrgConsensusNode(deps.prisma, { organizationId: ctx.organizationId, nodeId: refId })
          : await findOrgProducerName(deps, ctx.organizationId, refId);
  if (!target) throw new AppError("NOT_FOUND", NOT_FOUND_TEXT[kind]);
  try {
    const created = await insertStatusComponent(deps.prisma, {
      organizationId: ctx.organizationId,
      pageId: input.pageId,
      groupId: fields.groupId,
      kind,
      refId,
      displayName: fields.displayName || target.name,
      description: fields.description,
      position: fields.position,
    });
    if (!created) throw new AppError("NOT_FOUND", "Status page or group not found.");
    invalidateStatusSnapshots();
    return created;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("CONFLICT", "The page already lists it.", { details: { field: "ref" } });
    throw error;
  }
}
