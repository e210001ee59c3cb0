"use server";
import { createApiKey, revokeApiKey } from "@rpcpulse/services/orgs";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formValues, runFormAction, type FormState } from "@/server/action.js";
import { getRuntime } from "@/server/runtime.js";
import { requireOrgContext } from "@/server/session.js";

const Slug = z.string().trim().min(1).max(64);
const Expiry = z.enum(["30", "90", "365", "never"]);

/** Settings → API keys: create (admin, signed in); the key is returned to the form once. */
export async function createApiKeyAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  return runFormAction(
    async () => {
      const input = z.object({ slug: Slug, name: z.string(), scope: z.string(), expiry: Expiry }).parse(values);
      const { ctx } = await requireOrgContext(input.slug);
      const created = await createApiKey({ sql: getRuntime().sql }, ctx, {
        name: input.name,
        scope: input.scope,
        expiresInDays: input.expiry === "never" ? null : Number(input.expiry),
      });
      revalidatePath(`/app/o/${ctx.organizationSlug}/settings`);
      return {
        status: "ok",
        message: `Key “${created.apiKey.name}” created. Copy it now: it is not shown again.`,
        data: { key: created.key },
      };
    },
    { values: { name: values.name ?? "" } },
  );
}

/** Settings → API keys: revoke (admin, signed in); the key is refused from its next request. */
export async function revokeApiKeyAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, keyId: z.string() }).parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    const revoked = await revokeApiKey({ sql: getRuntime().sql }, ctx, { keyId: input.keyId });
    revalidatePath(`/app/o/${ctx.organizationSlug}/settings`);
    return { status: "ok", message: `Key “${revoked.name}” revoked.` };
  });
}
