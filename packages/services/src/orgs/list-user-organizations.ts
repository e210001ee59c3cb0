import { listUserMembershipRows } from "@rpcpulse/db/orgs";
import type { ServiceDeps, OrgRole } from "../context.js";
import { parseRole } from "../context.js";

export interface UserOrganization {
  id: string;
  name: string;
  slug: string;
  role: OrgRole;
}

/** The organizations a user belongs to, by name. Not org-scoped: it is the user's own list. */
export async function listUserOrganizations(deps: ServiceDeps, input: { userId: string }): Promise<UserOrganization[]> {
  const rows = await listUserMembershipRows(deps.prisma, input.userId);
  return rows.map((r) => ({ ...r, role: parseRole(r.role) }));
}
