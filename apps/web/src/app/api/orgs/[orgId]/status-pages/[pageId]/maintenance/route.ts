import { listMaintenance, createMaintenance } from "@rpcpulse/services/status";
import { z } from "zod";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";
type Params = { orgId: string; pageId: string };

/** GET /api/orgs/:orgId/status-pages/:pageId/maintenance: windows ending in the last 7 days or later (any member). */
export const GET = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const windows = await listMaintenance(getStatusReadDeps(), ctx, { pageId: params.pageId });
  return {
    body: {
      maintenance: windows.map((m) => ({
        id: m.id,
        title: m.title,
        body: m.body,
        startsAt: m.startsAt,
        endsAt: m.endsAt,
        componentIds: m.componentIds,
      })),
    },
  };
});

/** POST /api/orgs/:orgId/status-pages/:pageId/maintenance {title,body?,startsAt,endsAt,componentIds} (admin). */
export const POST = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const fields = await readJsonBody(request, z.record(z.string(), z.unknown()));
  return { status: 201, body: await createMaintenance(getStatusReadDeps(), ctx, { pageId: params.pageId, fields }) };
});
