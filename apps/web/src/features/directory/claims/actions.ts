"use server";
import {
  CLAIM_PROOF_METHODS,
  claimEndpoint,
  verifyEndpointClaim,
  withdrawEndpointClaim,
} from "@rpcpulse/services/directory";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formValues, runFormAction, type FormState } from "@/server/action.js";
import { requireOrgContext } from "@/server/session.js";
import { getClaimDeps } from "./claim-deps.js";

const Slug = z.string().trim().min(1).max(64);
const ClaimId = z.string().trim().min(1).max(64);

/** Start a claim on a listed endpoint (id or URL); shows the DNS record or the file that proves it. */
export async function claimEndpointAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  return runFormAction(
    async () => {
      const input = z
        .object({ slug: Slug, endpoint: z.string().trim().min(1, "Give the endpoint's id or URL.").max(2048) })
        .parse(values);
      const { ctx } = await requireOrgContext(input.slug);
      const claim = await claimEndpoint(getClaimDeps(), ctx, { endpoint: input.endpoint });
      revalidatePath(`/app/o/${ctx.organizationSlug}/endpoints`);
      return {
        status: "ok",
        message: claim.dnsName
          ? `Claim started for ${claim.url}: publish the TXT record shown or serve the well-known file, then verify.`
          : `Claim started for ${claim.url}: serve the well-known file shown, then verify.`,
      };
    },
    { values },
  );
}

/** Check a claim's proof now (DNS TXT record or the endpoint's well-known file). */
export async function verifyClaimAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z
      .object({ slug: Slug, claimId: ClaimId, method: z.enum(CLAIM_PROOF_METHODS) })
      .parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    const claim = await verifyEndpointClaim(getClaimDeps(), ctx, { claimId: input.claimId, method: input.method });
    revalidatePath(`/app/o/${ctx.organizationSlug}/endpoints`);
    if (claim.status === "verified" && claim.lastError === null)
      return { status: "ok", message: `Verified: ${claim.url} is now shown as run by your organization.` };
    // The reason is stored on the claim and shown with it; the form only says the check ran.
    return { status: "error", message: claim.lastError ?? "Not verified yet.", data: { checked: "1" } };
  });
}

export async function withdrawClaimAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, claimId: ClaimId }).parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    await withdrawEndpointClaim(getClaimDeps(), ctx, { claimId: input.claimId });
    revalidatePath(`/app/o/${ctx.organizationSlug}/endpoints`);
    return { status: "ok", message: "Claim withdrawn." };
  });
}
