import { updateStatusPage, getStatusPageForAdmin, deleteStatusPage } from "@rpcpulse/services/status";
import { z } from "zod";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { readJsonBody, requireApiOrgContext, withRoute } from "@/server/http.js";

export const dynamic = "force-dynamic";
type Params = { orgId: string; pageId: string };

/** GET /api/orgs/:orgId/status-pages/:pageId: page, groups and components (any member). */
export const GET = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const page = await getStatusPageForAdmin(getStatusReadDeps(), ctx, { pageId: params.pageId });
  return {
    body: {
      id: page.id,
      slug: page.slug,
      title: page.title,
      description: page.description,
      isPublic: page.isPublic,
      customDomain: page.customDomain,
      domainVerified: page.domainVerifiedAt !== null,
      groups: page.groups.map((g) => ({ id: g.id, name: g.name, position: g.position })),
      components: page.components.map((c) => ({
        id: c.id,
        kind: c.kind,
        ref: c.nodeId ?? c.endpointId,
        displayName: c.displayName,
        groupId: c.groupId,
        position: c.position,
      })),
    },
  };
});

/** PATCH /api/orgs/:orgId/status-pages/:pageId: replace the page fields (admin). */
export const PATCH = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  const fields = await readJsonBody(request, z.record(z.string(), z.unknown()));
  await updateStatusPage(getStatusReadDeps(), ctx, { pageId: params.pageId, fields });
  return { body: { ok: true } };
});

/** DELETE /api/orgs/:orgId/status-pages/:pageId (admin). */
export const DELETE = withRoute<Params>(async (request, params) => {
  const { ctx } = await requireApiOrgContext(request, params.orgId);
  await deleteStatusPage(getStatusReadDeps(), ctx, { pageId: params.pageId });
  return { body: { ok: true } };
});
