import { AppError } from "@rpcpulse/config";
import type { NodeRow } from "@rpcpulse/db/fleet";
import { z } from "zod";
import type { ServiceContext, ServiceDeps } from "../../context.js";
import { getNode } from "./get-node.js";
import { updateNode } from "./update-node.js";

/** The fields a PATCH may change; omitted ones keep their value, `null` clears an optional one. */
export const NodePatchInput = z
  .object({
    name: z.string(),
    network: z.string(),
    apiFamily: z.string(),
    clientName: z.string(),
    clientVersion: z.string().nullable(),
    localRpcUrl: z.string(),
    publicUrl: z.string().nullable(),
    region: z.string().nullable(),
  })
  .partial()
  .strict();
export type NodePatchInput = z.infer<typeof NodePatchInput>;

/**
 * Rename a node, or move it to another network / API family / region, keeping everything the
 * caller did not name (admins and owners). The merged settings go through the same checks as the
 * enroll form (NodeInput and the chain catalogue). A node never leaves its organization.
 */
export async function patchNode(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { nodeId: string; fields: unknown },
): Promise<NodeRow> {
  const current = await getNode(deps, ctx, { nodeId: input.nodeId });
  const patch = NodePatchInput.parse(input.fields);
  if (Object.keys(patch).length === 0) throw new AppError("VALIDATION", "Nothing to change.");
  const merged = {
    name: current.name,
    network: current.networkSlug,
    apiFamily: current.apiFamily,
    clientName: current.clientName,
    clientVersion: current.clientVersion ?? "",
    localRpcUrl: current.localRpcUrl,
    publicUrl: current.publicUrl ?? "",
    region: current.region ?? "",
    ...Object.fromEntries(Object.entries(patch).map(([k, v]) => [k, v ?? ""])),
  };
  return updateNode(deps, ctx, { nodeId: input.nodeId, fields: merged });
}
