"use server";
import {
  acceptInvitation,
  cancelInvitation,
  createOrganization,
  CreateOrganizationInput,
  inviteMember,
  removeMember,
  setActiveOrganization,
  updateMemberRole,
} from "@rpcpulse/auth";
import { getOrganizationMember } from "@rpcpulse/services/orgs";
import { requireRole } from "@rpcpulse/services/context";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { formValues, runFormAction, type FormState } from "@/server/action.js";
import { applySetCookies } from "@/server/cookies.js";
import { getRuntime } from "@/server/runtime.js";
import { getRequestHeaders, requireOrgContext, requireSession } from "@/server/session.js";

const Slug = z.string().trim().min(1).max(64);
const Role = z.enum(["owner", "admin", "viewer"]);

export async function createOrganizationAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const result = await runFormAction(async () => {
    await requireSession("/app/new-organization");
    const input = CreateOrganizationInput.parse(values);
    const { data, setCookies } = await createOrganization(getRuntime().auth, input, await getRequestHeaders());
    await applySetCookies(setCookies);
    redirect(`/app/o/${data.slug}`);
  });
  return { ...result, values: { name: values.name ?? "", slug: values.slug ?? "" } };
}

/** Org switcher: membership-checked, remembered on the session, then navigate. */
export async function switchOrganizationAction(formData: FormData): Promise<void> {
  const slug = Slug.safeParse(formData.get("slug"));
  if (!slug.success) redirect("/app");
  if (slug.data === "__new") redirect("/app/new-organization");
  const { ctx } = await requireOrgContext(slug.data);
  const { setCookies } = await setActiveOrganization(
    getRuntime().auth,
    { organizationId: ctx.organizationId },
    await getRequestHeaders(),
  );
  await applySetCookies(setCookies);
  redirect(`/app/o/${ctx.organizationSlug}`);
}

export async function inviteMemberAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, email: z.string(), role: Role }).parse(values);
    const { ctx } = await requireOrgContext(input.slug);
    requireRole(ctx, "admin");
    const { data } = await inviteMember(
      getRuntime().auth,
      { organizationId: ctx.organizationId, email: input.email, role: input.role },
      await getRequestHeaders(),
    );
    revalidatePath(`/app/o/${ctx.organizationSlug}/settings`);
    const link = `${new URL(getRuntime().env.APP_BASE_URL).origin}/invite/${data.id}`;
    return {
      status: "ok",
      message: getRuntime().mailer
        ? `Invitation emailed to ${data.email}. You can also send them this link (valid 7 days):`
        : `Invitation created for ${data.email}. This server sends no email: send them this link (valid 7 days):`,
      data: { link },
    };
  });
}

export async function updateMemberRoleAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, memberId: z.string(), role: Role }).parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    requireRole(ctx, "admin");
    await getOrganizationMember({ prisma: getRuntime().prisma }, ctx, input.memberId);
    await updateMemberRole(
      getRuntime().auth,
      { organizationId: ctx.organizationId, memberId: input.memberId, role: input.role },
      await getRequestHeaders(),
    );
    revalidatePath(`/app/o/${ctx.organizationSlug}/settings`);
    return { status: "ok", message: "Role updated." };
  });
}

export async function deleteMemberAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, memberId: z.string() }).parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    requireRole(ctx, "admin");
    await getOrganizationMember({ prisma: getRuntime().prisma }, ctx, input.memberId);
    await removeMember(
      getRuntime().auth,
      { organizationId: ctx.organizationId, memberId: input.memberId },
      await getRequestHeaders(),
    );
    revalidatePath(`/app/o/${ctx.organizationSlug}/settings`);
    return { status: "ok", message: "Member removed." };
  });
}

export async function cancelInvitationAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, invitationId: z.string() }).parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    requireRole(ctx, "admin");
    await cancelInvitation(getRuntime().auth, { invitationId: input.invitationId }, await getRequestHeaders());
    revalidatePath(`/app/o/${ctx.organizationSlug}/settings`);
    return { status: "ok", message: "Invitation cancelled." };
  });
}

export async function acceptInvitationAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ invitationId: z.string() }).parse(formValues(formData));
    await requireSession(`/invite/${encodeURIComponent(input.invitationId)}`);
    const { setCookies } = await acceptInvitation(getRuntime().auth, input, await getRequestHeaders());
    await applySetCookies(setCookies);
    redirect("/app");
  });
}
