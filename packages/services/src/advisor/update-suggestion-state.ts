import { AppError } from "@rpcpulse/config";
import {
  findSuggestionRow,
  listSuggestionEventRows,
  transitionSuggestionRow,
  type SuggestionStateValue,
} from "@rpcpulse/db/advisor";
import { z } from "zod";
import { requireRole, type ServiceContext, type ServiceDeps } from "../context.js";
import { toSuggestionView, type SuggestionView } from "./suggestion-view.js";

export const SUGGESTION_ACTIONS = ["acknowledge", "apply", "dismiss", "close", "reopen"] as const;
export type SuggestionAction = (typeof SUGGESTION_ACTIONS)[number];

export const ChangeSuggestionInput = z
  .object({
    suggestionId: z.string().uuid("Unknown suggestion."),
    action: z.enum(SUGGESTION_ACTIONS),
    reason: z.string().trim().max(500, "Keep the reason under 500 characters.").optional(),
  })
  .refine((v) => v.action !== "dismiss" || (v.reason !== undefined && v.reason.length >= 3), {
    message: "Say why you dismiss it (at least 3 characters).",
    path: ["reason"],
  });
export type ChangeSuggestionInput = z.input<typeof ChangeSuggestionInput>;

/** Which states each action starts from. */
const FROM: Record<SuggestionAction, readonly SuggestionStateValue[]> = {
  acknowledge: ["open"],
  apply: ["open", "acknowledged"],
  dismiss: ["open", "acknowledged", "applied", "not_effective"],
  close: ["open", "acknowledged", "applied", "verified", "not_effective"],
  reopen: ["dismissed", "closed", "auto_closed"],
};
const TO: Record<SuggestionAction, SuggestionStateValue> = {
  acknowledge: "acknowledged",
  apply: "applied",
  dismiss: "dismissed",
  close: "closed",
  reopen: "open",
};

/**
 * An operator's lifecycle action on one suggestion (admins and owners; viewers read only).
 * apply is for "change" suggestions only: explanations have nothing to apply and obsolete settings
 * close by themselves once the agent no longer sees the line. Another organization's id is NOT_FOUND.
 */
export async function updateSuggestionState(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: ChangeSuggestionInput,
  now: Date = new Date(),
): Promise<SuggestionView> {
  const parsed = ChangeSuggestionInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    if (field === "suggestionId") throw new AppError("NOT_FOUND", "Suggestion not found.");
    throw new AppError("VALIDATION", issue?.message ?? "Invalid action.", { details: { field: field ?? "action" } });
  }
  requireRole(ctx, "admin");
  const { suggestionId, action, reason } = parsed.data;
  const row = await findSuggestionRow(deps.prisma, { organizationId: ctx.organizationId, suggestionId });
  if (!row) throw new AppError("NOT_FOUND", "Suggestion not found.");
  if (action === "apply" && row.kind !== "change") {
    throw new AppError(
      "CONFLICT",
      row.kind === "explanation"
        ? "This is an explanation: there is nothing to apply. Close it once read."
        : "An obsolete setting is fixed by removing the line; the suggestion closes itself once the agent no longer sees it.",
    );
  }
  if (!FROM[action].includes(row.state)) {
    throw new AppError(
      "CONFLICT",
      `A suggestion that is ${row.state.replace("_", " ")} cannot be ${TO[action].replace("_", " ")}.`,
    );
  }
  const toState = TO[action];
  const fields =
    action === "apply"
      ? {
          appliedAt: now,
          appliedBy: "operator" as const,
          appliedByUserId: ctx.userId,
          verification: null,
          verificationCheckedAt: null,
          verifiedAt: null,
        }
      : action === "dismiss"
        ? { dismissReason: reason ?? null }
        : action === "reopen"
          ? {
              dismissReason: null,
              conditionClearedSince: null,
              appliedAt: null,
              appliedBy: null,
              appliedByUserId: null,
              verification: null,
              verifiedAt: null,
              verificationCheckedAt: null,
            }
          : {};
  const written = await transitionSuggestionRow(deps.prisma, {
    organizationId: ctx.organizationId,
    suggestionId,
    expectedState: row.state,
    fields: { state: toState, stateChangedAt: now, ...fields },
    event: { fromState: row.state, toState, actor: ctx.userId, reason: reason ?? null, at: now },
  });
  if (!written) throw new AppError("CONFLICT", "The suggestion changed meanwhile; reload and try again.");
  const updated = await findSuggestionRow(deps.prisma, { organizationId: ctx.organizationId, suggestionId });
  if (!updated) throw new AppError("NOT_FOUND", "Suggestion not found.");
  const events = await listSuggestionEventRows(deps.prisma, {
    organizationId: ctx.organizationId,
    suggestionIds: [suggestionId],
  });
  return toSuggestionView(updated, events);
}
