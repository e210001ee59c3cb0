import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements } from "better-auth/plugins/organization/access";

/**
 * Organization roles of RPC Pulse and what each may do. better-auth's organization plugin
 * checks these on its own endpoints (invite, change role, remove, delete org); our services
 * check the same ranks through `requireRole` for fleet objects.
 *
 * - owner:  everything, including deleting the organization.
 * - admin:  manage the fleet, invite and manage members; cannot delete the organization.
 * - viewer: read-only.
 */
export const ORG_ROLES = ["owner", "admin", "viewer"] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

const statements = {
  ...defaultStatements,
  fleet: ["read", "write"],
} as const;

export const accessControl = createAccessControl(statements);

export const orgRoles = {
  owner: accessControl.newRole({
    organization: ["update", "delete"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: [],
    ac: ["read"],
    fleet: ["read", "write"],
  }),
  admin: accessControl.newRole({
    organization: ["update"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: [],
    ac: ["read"],
    fleet: ["read", "write"],
  }),
  viewer: accessControl.newRole({
    organization: [],
    member: [],
    invitation: [],
    team: [],
    ac: ["read"],
    fleet: ["read"],
  }),
};

export function isOrgRole(value: string): value is OrgRole {
  return (ORG_ROLES as readonly string[]).includes(value);
}
