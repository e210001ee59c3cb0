import { deleteNode, getNode, patchNode } from "@rpcpulse/services/fleet";
import { z } from "zod";
import { getFleetDeps } from "@/features/fleet/fleet-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";
type Params = { orgId: string; nodeId: string };

/** GET /api/orgs/:orgId/nodes/:nodeId: one node's settings and last push (any member, any key). */
export const GET = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  return { body: { node: await getNode(getFleetDeps(), ctx, { nodeId: params.nodeId }) } };
});

/**
 * PATCH /api/orgs/:orgId/nodes/:nodeId {name?,network?,apiFamily?,clientName?,clientVersion?,localRpcUrl?,
 * publicUrl?,region?} (admin, write key): rename, or move to another network/family/region.
 */
export const PATCH = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const fields = await readJsonBody(request, z.record(z.string(), z.unknown()));
  return { body: { node: await patchNode(getFleetDeps(), ctx, { nodeId: params.nodeId, fields }) } };
});

/** DELETE /api/orgs/:orgId/nodes/:nodeId (admin, write key): the node and its agent tokens. */
export const DELETE = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  await deleteNode(getFleetDeps(), ctx, { nodeId: params.nodeId });
  return { body: { ok: true } };
});
