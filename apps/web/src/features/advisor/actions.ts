"use server";
import { updateSuggestionState, SUGGESTION_ACTIONS } from "@rpcpulse/services/advisor";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formValues, runFormAction, type FormState } from "@/server/action.js";
import { getRuntime } from "@/server/runtime.js";
import { requireOrgContext } from "@/server/session.js";

const Input = z.object({
  slug: z.string().trim().min(1).max(64),
  suggestionId: z.string().trim().min(1).max(64),
  action: z.enum(SUGGESTION_ACTIONS),
  reason: z.string().max(2_000).optional(),
});

const DONE: Record<(typeof SUGGESTION_ACTIONS)[number], string> = {
  acknowledge: "Acknowledged.",
  apply: "Marked as applied: the advisor compares before and after once enough data is in.",
  dismiss: "Dismissed.",
  close: "Closed.",
  reopen: "Re-opened.",
};

/** Lifecycle action on one suggestion (admins and owners; the service checks the role). */
export async function updateSuggestionAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = Input.parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    await updateSuggestionState({ prisma: getRuntime().prisma }, ctx, {
      suggestionId: input.suggestionId,
      action: input.action,
      ...(input.reason !== undefined && input.reason.trim() !== "" ? { reason: input.reason } : {}),
    });
    revalidatePath(`/app/o/${ctx.organizationSlug}/advisor`);
    revalidatePath(`/app/o/${ctx.organizationSlug}/nodes`, "layout");
    return { status: "ok", message: DONE[input.action] };
  });
}
