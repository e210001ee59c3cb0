"use server";
import { isAppError } from "@rpcpulse/config";
import { registerProducer, deleteProducer } from "@rpcpulse/services/producers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getRuntime } from "@/server/runtime.js";
import { requireOrgContext } from "@/server/session.js";

const Slug = z.string().trim().min(1).max(64);

/** Validators (Polkadot, Kusama) have their own section and form on the fleet page. */
const VALIDATOR_NETWORKS = new Set(["polkadot", "kusama"]);

function fleetUrl(slug: string, error?: string, section: "producers" | "validators" = "producers"): string {
  const param = section === "validators" ? "validatorError" : "producerError";
  return `/app/o/${encodeURIComponent(slug)}${error ? `?${param}=${encodeURIComponent(error.slice(0, 200))}` : ""}#${section}`;
}

/** Register a witness account (admin); a refusal comes back as ?producerError= on the fleet page. */
export async function registerProducerAction(formData: FormData): Promise<void> {
  const slug = Slug.parse(formData.get("slug"));
  const { ctx } = await requireOrgContext(slug);
  let error: string | undefined;
  const network = String(formData.get("network") ?? "");
  try {
    await registerProducer({ sql: getRuntime().sql }, ctx, {
      network,
      account: String(formData.get("account") ?? ""),
    });
  } catch (e) {
    if (!isAppError(e)) throw e;
    error = e.message;
  }
  revalidatePath(`/app/o/${slug}`);
  redirect(fleetUrl(slug, error, VALIDATOR_NETWORKS.has(network) ? "validators" : "producers"));
}

export async function deleteProducerAction(formData: FormData): Promise<void> {
  const slug = Slug.parse(formData.get("slug"));
  const { ctx } = await requireOrgContext(slug);
  await deleteProducer({ sql: getRuntime().sql }, ctx, { id: String(formData.get("id") ?? "") });
  revalidatePath(`/app/o/${slug}`);
  redirect(fleetUrl(slug));
}
