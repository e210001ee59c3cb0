import { listOrgStatusPages } from "@rpcpulse/db/status";
import { type ServiceContext, type ServiceDeps } from "../../context.js";

export async function listStatusPages(deps: ServiceDeps, ctx: ServiceContext) {
  const rows = await listOrgStatusPages(deps.prisma, ctx.organizationId);
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    title: r.title,
    isPublic: r.isPublic,
    customDomain: r.customDomain,
    domainVerified: r.domainVerifiedAt !== null,
    components: r._count.components,
    subscribers: r._count.subscribers,
  }));
}
