import { listOrganizationMemberRows } from "@rpcpulse/db/orgs";
import type { OrgRole, ServiceContext, ServiceDeps } from "../context.js";
import { parseRole } from "../context.js";

export interface OrganizationMember {
  id: string;
  userId: string;
  name: string;
  email: string;
  role: OrgRole;
  joinedAt: Date;
}

/** Members of the context's organization, owners first. Any member may read it. */
export async function listOrganizationMembers(deps: ServiceDeps, ctx: ServiceContext): Promise<OrganizationMember[]> {
  const rows = await listOrganizationMemberRows(deps.prisma, ctx.organizationId);
  const order: Record<OrgRole, number> = { owner: 0, admin: 1, viewer: 2 };
  return rows
    .map((r) => ({
      id: r.id,
      userId: r.userId,
      name: r.name,
      email: r.email,
      role: parseRole(r.role),
      joinedAt: r.createdAt,
    }))
    .sort((a, b) => order[a.role] - order[b.role]);
}
