import { AppError } from "@rpcpulse/config";
import { findMembership } from "@rpcpulse/db/orgs";
import { type PrismaClient } from "@rpcpulse/db/sql";
import { z } from "zod";

export const ORG_ROLE = z.enum(["owner", "admin", "viewer"]);
export type OrgRole = z.infer<typeof ORG_ROLE>;

/** Who is acting, in which organization, with which role. Built from a verified membership only. */
export interface ServiceContext {
  userId: string;
  organizationId: string;
  organizationSlug: string;
  role: OrgRole;
  /**
   * Set when an organization API key acts (then userId is `api-key:<id>`, role admin for a write key,
   * viewer for a read key); absent for a signed-in member.
   */
  apiKeyId?: string;
}

/** Dependencies every service verb receives alongside its context. */
export interface ServiceDeps {
  prisma: PrismaClient;
}

const RANK: Record<OrgRole, number> = { viewer: 0, admin: 1, owner: 2 };

/** Throws FORBIDDEN unless the context's role is at least `minimum` (viewer < admin < owner). */
export function requireRole(ctx: ServiceContext, minimum: OrgRole): void {
  if (RANK[ctx.role] < RANK[minimum]) {
    throw new AppError("FORBIDDEN", `This needs the ${minimum} role; you are ${ctx.role}.`);
  }
}

export function hasRole(ctx: ServiceContext, minimum: OrgRole): boolean {
  return RANK[ctx.role] >= RANK[minimum];
}

/** Unknown roles (written by hand in the database, say) read as viewer: least privilege. */
export function parseRole(value: string): OrgRole {
  const parsed = ORG_ROLE.safeParse(value);
  return parsed.success ? parsed.data : "viewer";
}

const OrgRef = z.union([
  z.object({ organizationId: z.string().min(1).max(64) }),
  z.object({ organizationSlug: z.string().min(1).max(64) }),
]);
export type OrgRef = z.infer<typeof OrgRef>;

/**
 * Resolve the context for `userId` acting in the organization named by id or slug. The
 * organization comes from the user's membership: an organization the user is not a member of
 * is reported as NOT_FOUND, exactly like one that does not exist (no existence oracle).
 */
export async function resolveServiceContext(
  deps: ServiceDeps,
  input: { userId: string } & OrgRef,
): Promise<ServiceContext> {
  const parsed = OrgRef.safeParse(input);
  if (!parsed.success) throw new AppError("NOT_FOUND", "Organization not found.");
  const ref = parsed.data;
  const member = await findMembership(deps.prisma, { userId: input.userId, ...ref });
  if (!member) throw new AppError("NOT_FOUND", "Organization not found.");
  return {
    userId: input.userId,
    organizationId: member.organizationId,
    organizationSlug: member.organizationSlug,
    role: parseRole(member.role),
  };
}
