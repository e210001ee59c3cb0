"use server";
import {
  createAlertChannel,
  createAlertRule,
  deleteAlertChannel,
  deleteAlertRule,
  setAlertChannelEnabled,
  setAlertRuleEnabled,
  testAlertChannel,
  updateAlertRule,
} from "@rpcpulse/services/alerting";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { formValues, runFormAction, type FormState } from "@/server/action.js";
import { getRuntime } from "@/server/runtime.js";
import { requireOrgContext } from "@/server/session.js";
import { getAlertingDeps } from "./alerts-deps.js";

const Slug = z.string().trim().min(1).max(64);
const Id = z.string().trim().uuid();

function ruleFields(formData: FormData, values: Record<string, string>) {
  return {
    ...values,
    notifyResolved: values.notifyResolved === "on",
    openIncidents: values.openIncidents === "on",
    enabled: values.enabled === "on",
    channelIds: formData.getAll("channelIds").filter((v): v is string => typeof v === "string"),
  };
}

export async function saveRuleAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  let done: string | null = null;
  const result = await runFormAction(
    async () => {
      const { ctx } = await requireOrgContext(Slug.parse(values.slug));
      const deps = getAlertingDeps();
      const fields = ruleFields(formData, values);
      if (values.ruleId) await updateAlertRule(deps, ctx, { ruleId: Id.parse(values.ruleId), fields });
      else await createAlertRule(deps, ctx, fields);
      done = `/app/o/${ctx.organizationSlug}/alerts`;
      revalidatePath(done);
      return { status: "ok", message: values.ruleId ? "Rule saved." : "Rule created." };
    },
    { fieldErrors: "own", values },
  );
  if (done && values.ruleId) redirect(done);
  return result;
}

export async function toggleRuleAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, ruleId: Id, enabled: z.enum(["true", "false"]) }).parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    await setAlertRuleEnabled(getAlertingDeps(), ctx, { ruleId: input.ruleId, enabled: input.enabled === "true" });
    revalidatePath(`/app/o/${ctx.organizationSlug}/alerts`);
    return { status: "ok", message: input.enabled === "true" ? "Enabled." : "Disabled." };
  });
}

export async function deleteRuleAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, ruleId: Id }).parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    await deleteAlertRule(getAlertingDeps(), ctx, { ruleId: input.ruleId });
    revalidatePath(`/app/o/${ctx.organizationSlug}/alerts`);
    return { status: "ok", message: "Rule deleted." };
  });
}

export async function createChannelAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  return runFormAction(
    async () => {
      const { ctx } = await requireOrgContext(Slug.parse(values.slug));
      const { channel, signingSecret } = await createAlertChannel(getAlertingDeps(), ctx, values);
      revalidatePath(`/app/o/${ctx.organizationSlug}/alerts`);
      return {
        status: "ok",
        message: signingSecret
          ? `${channel.name} created. Copy the signing secret now: it is shown only once.`
          : `${channel.name} created.`,
        ...(signingSecret ? { data: { signingSecret } } : {}),
      };
    },
    { fieldErrors: "own", values },
  );
}

export async function testChannelAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, channelId: Id }).parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    await testAlertChannel(getAlertingDeps(), ctx, {
      channelId: input.channelId,
      appBaseUrl: getRuntime().env.APP_BASE_URL,
    });
    revalidatePath(`/app/o/${ctx.organizationSlug}/alerts`);
    return { status: "ok", message: "Test queued: see the delivery log." };
  });
}

export async function toggleChannelAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z
      .object({ slug: Slug, channelId: Id, enabled: z.enum(["true", "false"]) })
      .parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    await setAlertChannelEnabled(getAlertingDeps(), ctx, {
      channelId: input.channelId,
      enabled: input.enabled === "true",
    });
    revalidatePath(`/app/o/${ctx.organizationSlug}/alerts`);
    return { status: "ok", message: input.enabled === "true" ? "Enabled." : "Disabled." };
  });
}

export async function deleteChannelAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, channelId: Id }).parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    await deleteAlertChannel(getAlertingDeps(), ctx, { channelId: input.channelId });
    revalidatePath(`/app/o/${ctx.organizationSlug}/alerts`);
    return { status: "ok", message: "Channel deleted." };
  });
}
