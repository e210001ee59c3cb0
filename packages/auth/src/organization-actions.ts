import { z } from "zod";
import { ORG_ROLES } from "./access-control.js";
import { callAuthEndpoint, type AuthEndpointResult } from "./call-auth-endpoint.js";
import type { Auth } from "./create-auth.js";

const Id = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "invalid id");

export const CreateOrganizationInput = z.object({
  name: z.string().trim().min(2, "Use at least 2 characters").max(80),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .min(3, "Use at least 3 characters")
    .max(48)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Lowercase letters, digits and single hyphens only"),
});
export type CreateOrganizationInput = z.infer<typeof CreateOrganizationInput>;

export const InviteMemberInput = z.object({
  organizationId: Id,
  email: z.string().trim().toLowerCase().pipe(z.email().max(254)),
  role: z.enum(ORG_ROLES),
});
export type InviteMemberInput = z.infer<typeof InviteMemberInput>;

export const UpdateMemberRoleInput = z.object({
  organizationId: Id,
  memberId: Id,
  role: z.enum(ORG_ROLES),
});
export type UpdateMemberRoleInput = z.infer<typeof UpdateMemberRoleInput>;

export const RemoveMemberInput = z.object({ organizationId: Id, memberId: Id });
export type RemoveMemberInput = z.infer<typeof RemoveMemberInput>;

export const InvitationIdInput = z.object({ invitationId: Id });
export type InvitationIdInput = z.infer<typeof InvitationIdInput>;

export interface OrganizationBody {
  id: string;
  name: string;
  slug: string;
}

export interface InvitationBody {
  id: string;
  email: string;
  role: string;
  organizationId: string;
  status: string;
  expiresAt: string;
}

export interface InvitationDetailsBody extends InvitationBody {
  organizationName: string;
  organizationSlug: string;
  inviterEmail: string;
}

export async function createOrganization(
  auth: Auth,
  input: CreateOrganizationInput,
  headers: Headers,
): Promise<AuthEndpointResult<OrganizationBody>> {
  const body = CreateOrganizationInput.parse(input);
  return callAuthEndpoint(auth, { path: "/organization/create", body, headers });
}

/** better-auth checks the caller's role (invitation:create: owner/admin; only owners invite owners). */
export async function inviteMember(
  auth: Auth,
  input: InviteMemberInput,
  headers: Headers,
): Promise<AuthEndpointResult<InvitationBody>> {
  const body = InviteMemberInput.parse(input);
  return callAuthEndpoint(auth, { path: "/organization/invite-member", body: { ...body, resend: true }, headers });
}

export async function cancelInvitation(
  auth: Auth,
  input: InvitationIdInput,
  headers: Headers,
): Promise<AuthEndpointResult<unknown>> {
  const body = InvitationIdInput.parse(input);
  return callAuthEndpoint(auth, { path: "/organization/cancel-invitation", body, headers });
}

export async function updateMemberRole(
  auth: Auth,
  input: UpdateMemberRoleInput,
  headers: Headers,
): Promise<AuthEndpointResult<unknown>> {
  const body = UpdateMemberRoleInput.parse(input);
  return callAuthEndpoint(auth, { path: "/organization/update-member-role", body, headers });
}

export async function removeMember(
  auth: Auth,
  input: RemoveMemberInput,
  headers: Headers,
): Promise<AuthEndpointResult<unknown>> {
  const { organizationId, memberId } = RemoveMemberInput.parse(input);
  return callAuthEndpoint(auth, {
    path: "/organization/remove-member",
    body: { organizationId, memberIdOrEmail: memberId },
    headers,
  });
}

/** Details of a pending, unexpired invitation addressed to the signed-in user. */
export async function getInvitation(
  auth: Auth,
  input: InvitationIdInput,
  headers: Headers,
): Promise<AuthEndpointResult<InvitationDetailsBody>> {
  const { invitationId } = InvitationIdInput.parse(input);
  return callAuthEndpoint(auth, {
    path: `/organization/get-invitation?id=${encodeURIComponent(invitationId)}`,
    method: "GET",
    headers,
  });
}

export async function acceptInvitation(
  auth: Auth,
  input: InvitationIdInput,
  headers: Headers,
): Promise<AuthEndpointResult<{ member: { organizationId: string } }>> {
  const body = InvitationIdInput.parse(input);
  return callAuthEndpoint(auth, { path: "/organization/accept-invitation", body, headers });
}

export async function setActiveOrganization(
  auth: Auth,
  input: { organizationId: string },
  headers: Headers,
): Promise<AuthEndpointResult<unknown>> {
  const body = z.object({ organizationId: Id }).parse(input);
  return callAuthEndpoint(auth, { path: "/organization/set-active", body, headers });
}

export type InvitationLinkState = "pending" | "expired" | "canceled" | "accepted" | "rejected" | "unknown";

/**
 * Why an invitation link does (not) work, for a clear page: expired, revoked (canceled), already
 * used (accepted), declined, or unknown. Read by id only (the id is the secret of the link).
 */
export async function describeInvitationLink(auth: Auth, invitationId: string): Promise<InvitationLinkState> {
  const parsed = Id.safeParse(invitationId);
  if (!parsed.success) return "unknown";
  const ctx = await auth.$context;
  const row = await ctx.adapter.findOne<{ status: string; expiresAt: Date }>({
    model: "invitation",
    where: [{ field: "id", value: parsed.data }],
  });
  if (!row) return "unknown";
  if (row.status === "canceled" || row.status === "accepted" || row.status === "rejected") return row.status;
  if (row.status !== "pending") return "unknown";
  return new Date(row.expiresAt).getTime() > Date.now() ? "pending" : "expired";
}
