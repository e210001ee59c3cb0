import { deleteProducer } from "@rpcpulse/services/producers";
import { requireApiOrgContext, withRoute } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

/** DELETE /api/orgs/:orgId/producers/:producerId (admin): stop watching a witness account or validator stash (its history goes too). */
export const DELETE = withRoute<{ orgId: string; producerId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  await deleteProducer({ sql: getRuntime().sql }, ctx, { id: params.producerId });
  return { body: { removed: params.producerId } };
});
