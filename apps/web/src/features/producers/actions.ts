"use server";
import { isAppError } from "@rpcpulse/config";
import { registerProducer, removeProducer } from "@rpcpulse/services";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getRuntime } from "../../server/runtime.js";
import { requireOrgContext } from "../../server/session.js";

const Slug = z.string().trim().min(1).max(64);

function fleetUrl(slug: string, error?: string): string {
  return `/app/o/${encodeURIComponent(slug)}${error ? `?producerError=${encodeURIComponent(error.slice(0, 200))}` : ""}#producers`;
}

/** Register a witness account (admin); a refusal comes back as ?producerError= on the fleet page. */
export async function registerProducerAction(formData: FormData): Promise<void> {
  const slug = Slug.parse(formData.get("slug"));
  const { ctx } = await requireOrgContext(slug);
  let error: string | undefined;
  try {
    await registerProducer({ sql: getRuntime().sql }, ctx, {
      network: String(formData.get("network") ?? ""),
      account: String(formData.get("account") ?? ""),
    });
  } catch (e) {
    if (!isAppError(e)) throw e;
    error = e.message;
  }
  revalidatePath(`/app/o/${slug}`);
  redirect(fleetUrl(slug, error));
}

export async function removeProducerAction(formData: FormData): Promise<void> {
  const slug = Slug.parse(formData.get("slug"));
  const { ctx } = await requireOrgContext(slug);
  await removeProducer({ sql: getRuntime().sql }, ctx, { id: String(formData.get("id") ?? "") });
  revalidatePath(`/app/o/${slug}`);
  redirect(fleetUrl(slug));
}
