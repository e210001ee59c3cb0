import { createStatusComponent } from "@rpcpulse/services/status";
import { z } from "zod";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** POST /api/orgs/:orgId/status-pages/:pageId/components {ref:"node:<id>"|"endpoint:<id>"|"producer:<id>"|"consensus_client:<nodeId>",displayName?,groupId?,position?} (admin). */
export const POST = withRoute<{ orgId: string; pageId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const fields = await readJsonBody(request, z.record(z.string(), z.unknown()));
  return {
    status: 201,
    body: await createStatusComponent(getStatusReadDeps(), ctx, { pageId: params.pageId, fields }),
  };
});
