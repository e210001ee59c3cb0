import { rotateAgentToken } from "@rpcpulse/services/fleet";
import { z } from "zod";
import { getFleetDeps } from "@/features/fleet/fleet-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

const Body = z
  .object({
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(30 * 86_400)
      .optional(),
  })
  .strict();

/**
 * POST /api/orgs/:orgId/nodes/:nodeId/agent-tokens/rotate {overlapSeconds?} (admin, write key): a new
 * token; the node's other live tokens expire after the overlap (default 24 h, 0 = at once).
 */
export const POST = withRoute<{ orgId: string; nodeId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const hasBody = (request.headers.get("content-length") ?? "0") !== "0";
  const body = hasBody ? await readJsonBody(request, Body) : {};
  const issued = await rotateAgentToken(getFleetDeps(), ctx, {
    nodeId: params.nodeId,
    ...(body.overlapSeconds === undefined ? {} : { overlapMs: body.overlapSeconds * 1000 }),
  });
  return {
    status: 201,
    body: { token: issued.token, record: issued.record, expiringTokens: issued.expiringPrefixes },
  };
});
