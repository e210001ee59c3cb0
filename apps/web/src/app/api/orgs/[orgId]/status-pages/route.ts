import { createStatusPage, listStatusPages } from "@rpcpulse/services/status";
import { z } from "zod";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";

/** GET /api/orgs/:orgId/status-pages: the organization's status pages (any member). */
export const GET = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  return { body: { statusPages: await listStatusPages(getStatusReadDeps(), ctx) } };
});

/** POST /api/orgs/:orgId/status-pages {slug,title,description?,isPublic?,accentColor?,theme?} (admin). */
export const POST = withRoute<{ orgId: string }>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const body = await readJsonBody(request, z.record(z.string(), z.unknown()));
  const created = await createStatusPage(getStatusReadDeps(), ctx, body);
  return { status: 201, body: created };
});
