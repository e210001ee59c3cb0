import { type SuggestionEventRow, type SuggestionRow } from "@rpcpulse/db/advisor";
import { readStoredDraft, readStoredVerification, type StoredDraft, type StoredVerification } from "./stored-draft.js";

/** A suggestion as pages show it: the row, its parsed draft and verification, and its history. */
export interface SuggestionView extends Omit<SuggestionRow, "draft" | "verification"> {
  draft: StoredDraft;
  verification: StoredVerification | null;
  events: SuggestionEventRow[];
}

/** A row as pages show it, with its history out of `events`. */
export function toSuggestionView(row: SuggestionRow, events: readonly SuggestionEventRow[]): SuggestionView {
  return {
    ...row,
    draft: readStoredDraft(row.draft),
    verification: readStoredVerification(row.verification),
    events: events.filter((e) => e.suggestionId === row.id),
  };
}
