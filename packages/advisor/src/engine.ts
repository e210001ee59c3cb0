import { resolveThresholds } from "./thresholds.js";
import { parseClient, type ClientInfo } from "./client-version.js";
import type { AdvisorInput, RuleDescriptor, SuggestionDraft, Thresholds } from "./types.js";

/** What a rule sees: the input, resolved thresholds and the parsed client. */
export interface RuleContext {
  input: AdvisorInput;
  t: Thresholds;
  client: ClientInfo;
  window: { from: string; to: string };
  /** The app's verification window override (minutes), or null: each rule's own minimum. */
  verifyWindowMinutes: number | null;
}

export interface Rule {
  descriptor: RuleDescriptor;
  evaluate(ctx: RuleContext): SuggestionDraft[];
}

export function buildContext(input: AdvisorInput): RuleContext {
  return {
    input,
    t: resolveThresholds(input.thresholds),
    client: parseClient(input.node),
    window: { from: input.window.from.toISOString(), to: input.window.to.toISOString() },
    verifyWindowMinutes:
      typeof input.verifyWindowMinutes === "number" && input.verifyWindowMinutes > 0 ? input.verifyWindowMinutes : null,
  };
}

/** A rule runs only for its families and (when it names any) its clients. */
export function ruleApplies(rule: Rule, ctx: RuleContext): boolean {
  const d = rule.descriptor;
  const familyOk = d.families.includes("any") || d.families.includes(ctx.input.node.family);
  const clientOk = d.clients.length === 0 || d.clients.includes(ctx.client.kind);
  return familyOk && clientOk;
}

const SEVERITY_ORDER = { critical: 4, high: 3, medium: 2, low: 1, info: 0 } as const;

export function runRules(rules: readonly Rule[], input: AdvisorInput): SuggestionDraft[] {
  const ctx = buildContext(input);
  const drafts: SuggestionDraft[] = [];
  for (const rule of rules) if (ruleApplies(rule, ctx)) drafts.push(...rule.evaluate(ctx));
  return drafts.sort(
    (a, b) =>
      b.impact - a.impact ||
      SEVERITY_ORDER[b.severity] - SEVERITY_ORDER[a.severity] ||
      a.fingerprint.localeCompare(b.fingerprint),
  );
}
