import { listSuggestions } from "@rpcpulse/services/advisor";
import { z } from "zod";
import { requireApiOrgContext, withRoute } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

const Query = z.object({
  nodeId: z.string().uuid().optional(),
  severity: z.enum(["info", "low", "medium", "high", "critical"]).optional(),
});

/** GET /api/orgs/:orgId/suggestions[?nodeId=&severity=]: the advisor's suggestions by impact (any member). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const url = new URL(request.url);
  const query = Query.parse({
    nodeId: url.searchParams.get("nodeId") ?? undefined,
    severity: url.searchParams.get("severity") ?? undefined,
  });
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const suggestions = await listSuggestions({ prisma: getRuntime().prisma }, ctx, query);
  return { body: { suggestions } };
});
