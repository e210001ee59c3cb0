import type { AdvisorSettings, SuggestionDraft } from "@rpcpulse/advisor";
import type { SuggestionPlanStep, SuggestionRow, SuggestionStateValue } from "@rpcpulse/db/advisor";
import { settingMatches } from "./applies-when.js";
import { readStoredDraft, type StoredDraft } from "./stored-draft.js";

/**
 * The pure half of evaluating a node: given the node's stored suggestions, the rules' drafts of
 * this evaluation and the settings the agent reported, decide every write.
 *
 * - A new fingerprint opens a suggestion.
 * - A draft for a stored suggestion refreshes it (evidence, snippets, impact, last seen). Auto-closed
 *   and closed suggestions whose condition is back re-open; dismissed ones stay dismissed.
 * - Open/acknowledged "change" suggestions move to applied when the agent reports the setting their
 *   appliesWhen asks for, after it was seen without it (detected by the agent).
 * - A stored open/acknowledged suggestion without a draft starts its clear period; once the
 *   condition has been absent for `clearAfterMs` it is auto-closed.
 */
export interface PlanInput {
  organizationId: string;
  nodeId: string;
  existing: readonly SuggestionRow[];
  drafts: readonly SuggestionDraft[];
  settings: AdvisorSettings | null;
  now: Date;
  clearAfterMs: number;
}

export const ACTIVE_STATES: readonly SuggestionStateValue[] = ["open", "acknowledged"];
const REOPENING_STATES: readonly SuggestionStateValue[] = ["auto_closed", "closed"];
const SYSTEM = "system";

function minutes(ms: number): string {
  const m = Math.round(ms / 60_000);
  return m === 1 ? "1 minute" : `${m} minutes`;
}

/** The stored form of a draft, carrying the "seen without the setting" fact forward. */
function storeDraft(
  draft: SuggestionDraft,
  previous: StoredDraft | null,
  settings: AdvisorSettings | null,
): StoredDraft {
  const match = draft.appliesWhen ? settingMatches(settings, draft.appliesWhen) : null;
  return { ...draft, settingSeenUnapplied: (previous?.settingSeenUnapplied ?? false) || match === false };
}

export function planSuggestionChanges(input: PlanInput): SuggestionPlanStep[] {
  const { now, settings } = input;
  const steps: SuggestionPlanStep[] = [];
  const byFingerprint = new Map(input.existing.map((row) => [row.fingerprint, row]));
  const seen = new Set<string>();

  for (const draft of input.drafts) {
    if (seen.has(draft.fingerprint)) continue;
    seen.add(draft.fingerprint);
    const row = byFingerprint.get(draft.fingerprint);
    const refresh = {
      ruleId: draft.ruleId,
      kind: draft.kind,
      severity: draft.severity,
      impact: draft.impact,
      title: draft.title,
      lastSeenAt: now,
      conditionClearedSince: null,
    };
    if (!row) {
      steps.push({
        op: "create",
        organizationId: input.organizationId,
        nodeId: input.nodeId,
        fingerprint: draft.fingerprint,
        fields: { ...refresh, draft: storeDraft(draft, null, settings), state: "open", stateChangedAt: now },
        event: { fromState: null, toState: "open", actor: SYSTEM, reason: "condition observed", at: now },
      });
      continue;
    }
    const stored = storeDraft(draft, readStoredDraft(row.draft), settings);
    if (REOPENING_STATES.includes(row.state)) {
      steps.push({
        op: "update",
        id: row.id,
        expectedState: row.state,
        fields: {
          ...refresh,
          draft: stored,
          state: "open",
          stateChangedAt: now,
          dismissReason: null,
          appliedAt: null,
          appliedBy: null,
          appliedByUserId: null,
          verifiedAt: null,
          verification: null,
          verificationCheckedAt: null,
          reopenCount: row.reopenCount + 1,
        },
        event: { fromState: row.state, toState: "open", actor: SYSTEM, reason: "condition returned", at: now },
      });
      continue;
    }
    const applied = agentApplied(row, stored, settings, now);
    steps.push({
      op: "update",
      id: row.id,
      expectedState: row.state,
      fields: applied ? { ...refresh, draft: stored, ...applied.fields } : { ...refresh, draft: stored },
      ...(applied ? { event: applied.event(row.state, now) } : {}),
    });
  }

  for (const row of input.existing) {
    if (seen.has(row.fingerprint)) continue;
    const stored = readStoredDraft(row.draft);
    // The setting may change together with the condition clearing: detect "applied" first.
    const applied = agentApplied(row, stored, settings, now);
    if (applied) {
      steps.push({
        op: "update",
        id: row.id,
        expectedState: row.state,
        fields: { ...applied.fields, conditionClearedSince: row.conditionClearedSince ?? now },
        event: applied.event(row.state, now),
      });
      continue;
    }
    const matchNow = stored.appliesWhen ? settingMatches(settings, stored.appliesWhen) : null;
    const remember =
      matchNow === false && !stored.settingSeenUnapplied ? { draft: { ...stored, settingSeenUnapplied: true } } : {};
    if (row.conditionClearedSince === null) {
      steps.push({
        op: "update",
        id: row.id,
        expectedState: row.state,
        fields: { conditionClearedSince: now, ...remember },
      });
      continue;
    }
    const absentFor = now.getTime() - row.conditionClearedSince.getTime();
    if (ACTIVE_STATES.includes(row.state) && absentFor >= input.clearAfterMs) {
      steps.push({
        op: "update",
        id: row.id,
        expectedState: row.state,
        fields: { state: "auto_closed", stateChangedAt: now, ...remember },
        event: {
          fromState: row.state,
          toState: "auto_closed",
          actor: SYSTEM,
          reason: `condition absent for ${minutes(absentFor)}`,
          at: now,
        },
      });
    } else if (remember.draft) {
      steps.push({ op: "update", id: row.id, expectedState: row.state, fields: remember });
    }
  }
  return steps;
}

/** Applied-by-agent transition for an open/acknowledged change whose setting now matches. */
function agentApplied(row: SuggestionRow, stored: StoredDraft, settings: AdvisorSettings | null, now: Date) {
  if (row.kind !== "change" || !ACTIVE_STATES.includes(row.state) || !stored.appliesWhen) return null;
  if (!stored.settingSeenUnapplied) return null;
  if (settingMatches(settings, stored.appliesWhen) !== true) return null;
  const { setting, expected } = stored.appliesWhen;
  return {
    fields: {
      state: "applied" as const,
      stateChangedAt: now,
      appliedAt: now,
      appliedBy: "agent" as const,
      appliedByUserId: null,
      verification: null,
      verificationCheckedAt: null,
    },
    event: (from: SuggestionStateValue, at: Date = now) => ({
      fromState: from,
      toState: "applied" as const,
      actor: "agent",
      reason: `agent reported ${setting} ${/^[<>=]/.test(expected) ? expected : `= ${expected}`}`,
      at,
    }),
  };
}
