import { AppError } from "@rpcpulse/config";
import { findOrganizationMemberRow } from "@rpcpulse/db/orgs";
import type { ServiceContext, ServiceDeps } from "../context.js";
import { parseRole } from "../context.js";
import type { OrganizationMember } from "./list-organization-members.js";

/**
 * One member of the context's organization. A member id of another organization is NOT_FOUND,
 * checked here before any mutation reaches better-auth (whose own checks run in an order that
 * can answer 400 first).
 */
export async function getOrganizationMember(
  deps: ServiceDeps,
  ctx: ServiceContext,
  memberId: string,
): Promise<OrganizationMember> {
  const row = await findOrganizationMemberRow(deps.prisma, { organizationId: ctx.organizationId, memberId });
  if (!row) throw new AppError("NOT_FOUND", "Member not found.");
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    email: row.email,
    role: parseRole(row.role),
    joinedAt: row.createdAt,
  };
}
