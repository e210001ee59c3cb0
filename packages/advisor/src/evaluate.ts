import { runRules, type Rule } from "./engine.js";
import type { AdvisorInput, RuleDescriptor, SuggestionDraft } from "./types.js";

/** Every rule, in the order of the docs table. */
const ALL_RULES: readonly Rule[] = [];

export const RULES: readonly RuleDescriptor[] = ALL_RULES.map((r) => r.descriptor);

/**
 * Evaluate every rule that applies to the node's family/client over the window. Pure and
 * deterministic: same input, same drafts (sorted by impact, then severity, then fingerprint).
 */
export function evaluateNode(input: AdvisorInput): SuggestionDraft[] {
  return runRules(ALL_RULES, input);
}
