import { updateSuggestionState, SUGGESTION_ACTIONS } from "@rpcpulse/services/advisor";
import { z } from "zod";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

export const dynamic = "force-dynamic";

const Body = z.object({ action: z.enum(SUGGESTION_ACTIONS), reason: z.string().max(500).optional() }).strict();

/**
 * POST /api/orgs/:orgId/suggestions/:suggestionId { action, reason? }: acknowledge, apply, dismiss
 * (reason required), close or re-open (admin or owner; 404 for another organization's suggestion).
 */
export const POST = withRoute<{ orgId: string; suggestionId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const body = await readJsonBody(request, Body);
  const suggestion = await updateSuggestionState({ prisma: getRuntime().prisma }, ctx, {
    suggestionId: params.suggestionId,
    ...body,
  });
  return { body: { suggestion } };
});
