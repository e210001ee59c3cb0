import { runRules, type Rule } from "./engine.js";
import { SYNC_RULES } from "./rules/chain-sync.js";
import { CLIENT_RULES } from "./rules/clients.js";
import { FINALITY_RULES } from "./rules/finality-stall.js";
import { FLOOD_RULES } from "./rules/flood.js";
import { HIVE_RULES } from "./rules/hive-state.js";
import { KERNEL_STALE_RULES } from "./rules/kernel-stale.js";
import { LIMIT_RULES } from "./rules/limits.js";
import { SIDECAR_RULES } from "./rules/sidecar.js";
import { SOCKET_RULES } from "./rules/sockets.js";
import { STALL_RULES } from "./rules/stalled-head.js";
import { TIME_WAIT_RULES } from "./rules/time-wait.js";
import { CLOCK_RULES } from "./rules/clock-skew.js";
import type { AdvisorInput, RuleDescriptor, SuggestionDraft } from "./types.js";

/** Every rule, in the order of the docs table. */
const ALL_RULES: readonly Rule[] = [
  ...KERNEL_STALE_RULES,
  ...TIME_WAIT_RULES,
  ...SOCKET_RULES,
  ...LIMIT_RULES,
  ...FLOOD_RULES,
  ...SYNC_RULES,
  ...STALL_RULES,
  ...FINALITY_RULES,
  ...HIVE_RULES,
  ...CLIENT_RULES,
  ...SIDECAR_RULES,
  ...CLOCK_RULES,
];

export const RULES: readonly RuleDescriptor[] = ALL_RULES.map((r) => r.descriptor);

/**
 * Evaluate every rule that applies to the node's family/client over the window. Pure and
 * deterministic: same input, same drafts (sorted by impact, then severity, then fingerprint).
 */
export function evaluateNode(input: AdvisorInput): SuggestionDraft[] {
  return runRules(ALL_RULES, input);
}
