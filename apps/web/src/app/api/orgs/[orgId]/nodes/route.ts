import { enrollNode, listOrganizationNodes } from "@rpcpulse/services/fleet";
import { z } from "zod";
import { getFleetDeps } from "@/features/fleet/fleet-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

/** GET /api/orgs/:orgId/nodes: the organization's nodes (any member, any key). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const nodes = await listOrganizationNodes({ prisma: getRuntime().prisma }, ctx);
  return { body: { nodes } };
});

/**
 * POST /api/orgs/:orgId/nodes {name,network,apiFamily,clientName,clientVersion?,localRpcUrl,publicUrl?,region?}
 * (admin, write key): enroll a node. The agent token is in this response only.
 */
export const POST = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const body = await readJsonBody(request, z.record(z.string(), z.unknown()));
  const { node, issued } = await enrollNode(getFleetDeps(), ctx, body);
  return {
    status: 201,
    body: {
      node,
      agentToken: { token: issued.token, ...issued.record },
      ingestUrl: getRuntime().env.INGEST_PUBLIC_URL,
    },
  };
});
