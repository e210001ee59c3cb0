import { AppError } from "@rpcpulse/config";
import { z } from "zod";

/** Rule types (match the alert_rule_type enum of @rpcpulse/db). */
export const ALERT_RULE_TYPES = [
  "node_down",
  "lag",
  "head_age",
  "endpoint_down",
  "latency_p95",
  "port_exhaustion",
  "connection_flood",
  "suggestion",
  "finality_stalled",
  "public_head_behind",
  "witness_missed_block",
  "witness_feed_stale",
  "witness_key_changed",
  "witness_version_behind",
  "validator_left_active_set",
  "validator_low_era_points",
  "validator_offline_report",
  "consensus_client_behind",
] as const;
export type AlertRuleType = (typeof ALERT_RULE_TYPES)[number];

/** What each type measures, its unit and defaults. Every type is "higher is worse". */
export interface RuleTypeInfo {
  label: string;
  unit: string;
  /** Which targets make sense: nodes (one node or all of the org's) or public endpoints. */
  targets: "node" | "endpoint" | "both" | "producer";
  defaults: { threshold: number; degraded: number | null; windowMinutes: number };
  max: number;
  help: string;
}

export const RULE_TYPES: Record<AlertRuleType, RuleTypeInfo> = {
  node_down: {
    label: "Node down (agent silent)",
    unit: "s",
    targets: "node",
    defaults: { threshold: 120, degraded: null, windowMinutes: 0 },
    max: 86_400,
    help: "Seconds since the agent's last accepted push.",
  },
  lag: {
    label: "Lag behind the network head",
    unit: "blocks",
    targets: "node",
    defaults: { threshold: 10, degraded: 3, windowMinutes: 0 },
    max: 10_000_000,
    help: "Blocks behind the best head seen on the network (latest sample).",
  },
  head_age: {
    label: "Head age",
    unit: "s",
    targets: "node",
    defaults: { threshold: 60, degraded: 30, windowMinutes: 0 },
    max: 86_400,
    help: "Seconds since the node's head block was produced (latest sample).",
  },
  endpoint_down: {
    label: "Endpoint down (probe quorum)",
    unit: "% of vantage points",
    targets: "endpoint",
    defaults: { threshold: 50, degraded: 1, windowMinutes: 3 },
    max: 100,
    help: "Share of vantage points whose probes in the window mostly failed; fires at the quorum.",
  },
  latency_p95: {
    label: "Latency p95",
    unit: "ms",
    targets: "both",
    defaults: { threshold: 2_000, degraded: 1_000, windowMinutes: 5 },
    max: 600_000,
    help: "p95 of probe total time (endpoint) or the agent's RPC round trip (node) over the window.",
  },
  port_exhaustion: {
    label: "Ephemeral port exhaustion",
    unit: "% of range",
    targets: "node",
    defaults: { threshold: 80, degraded: 60, windowMinutes: 0 },
    max: 100,
    help: "Ephemeral ports in use (outbound TIME_WAIT included) as a share of the range.",
  },
  connection_flood: {
    label: "Connection flood (one remote IP)",
    unit: "connections",
    targets: "node",
    defaults: { threshold: 500, degraded: 200, windowMinutes: 0 },
    max: 10_000_000,
    help: "Connections from the busiest single remote IP (latest sample).",
  },
  suggestion: {
    label: "High-severity tuning suggestion",
    unit: "open suggestions",
    targets: "node",
    defaults: { threshold: 1, degraded: null, windowMinutes: 0 },
    max: 1_000,
    help: "Open tuning suggestions of high or critical severity.",
  },
  finality_stalled: {
    label: "Finality stalled (head moves, finalized block does not)",
    unit: "s",
    targets: "node",
    // Ethereum's finalized checkpoint moves once per epoch (6.4 min): 10 min degraded, 15 min firing.
    defaults: { threshold: 900, degraded: 600, windowMinutes: 0 },
    max: 86_400,
    help: "Seconds since the finalized (Hive/Steem: last irreversible) block last advanced while the head kept advancing.",
  },
  public_head_behind: {
    label: "Public URL behind the node's own head",
    unit: "blocks",
    targets: "node",
    defaults: { threshold: 10, degraded: 3, windowMinutes: 0 },
    max: 10_000_000,
    help: "Blocks the head served at the node's public URL is behind the node's own (latest check); a failing URL counts from the last head it served.",
  },
  witness_missed_block: {
    label: "Witness missed a block",
    unit: "missed blocks",
    targets: "producer",
    // Fires on the first miss (the for-duration is ignored: a miss is an event), clears after the window.
    defaults: { threshold: 1, degraded: null, windowMinutes: 30 },
    max: 10_000,
    help: "Blocks the witness missed within the window (total_missed grew); the alert names the block range.",
  },
  witness_feed_stale: {
    label: "Witness price feed stale",
    unit: "h",
    targets: "producer",
    defaults: { threshold: 24, degraded: 12, windowMinutes: 0 },
    max: 24 * 365,
    help: "Hours since the witness last published its HBD/SBD price feed.",
  },
  witness_key_changed: {
    label: "Witness signing key changed or disabled",
    unit: "changes",
    targets: "producer",
    defaults: { threshold: 1, degraded: null, windowMinutes: 60 },
    max: 1,
    help: "1 while the signing key is the null key (witness disabled) or changed within the window.",
  },
  witness_version_behind: {
    label: "Witness version behind the majority",
    unit: "versions behind",
    targets: "producer",
    defaults: { threshold: 1, degraded: null, windowMinutes: 0 },
    max: 1,
    help: "1 while the witness runs a version older than the schedule's majority version (before a hardfork).",
  },
  validator_left_active_set: {
    label: "Validator not in the active set",
    unit: "",
    targets: "producer",
    defaults: { threshold: 1, degraded: null, windowMinutes: 0 },
    max: 1,
    help: "1 while the validator stash is not in the session's validator set (it left it, was not elected, or was chilled).",
  },
  validator_low_era_points: {
    label: "Validator era points below the set's median",
    unit: "% below the median",
    targets: "producer",
    // Fires below 50 % of the median (50 % short), degraded below 70 %; read only after a quarter of the era.
    defaults: { threshold: 50, degraded: 30, windowMinutes: 0 },
    max: 100,
    help: "How far (percent) the validator's era points are below the active set's median, once 25 % of the era has passed.",
  },
  validator_offline_report: {
    label: "Validator reported offline",
    unit: "offline reports",
    targets: "producer",
    // An event (imOnline.SomeOffline): fires at once, clears after the window.
    defaults: { threshold: 1, degraded: null, windowMinutes: 240 },
    max: 10_000,
    help: "Offline reports (imOnline.SomeOffline naming the stash) within the window; the alert names the block.",
  },
  consensus_client_behind: {
    label: "Consensus client behind (Ethereum beacon node)",
    unit: "slots",
    targets: "node",
    // 12 s slots: 4 slots (48 s) degraded, 8 slots (~1.6 min) firing; a missed proposal is 1 slot.
    defaults: { threshold: 8, degraded: 4, windowMinutes: 0 },
    max: 10_000_000,
    help: "Slots the Ethereum consensus client's head is behind the wall-clock slot (Beacon API, latest reading); while its Beacon API fails, counted from the last head it served.",
  },
};

/** Rule types that are events (a miss, an offline report): they fire at once, whatever the for-duration. */
export function isEventRuleType(type: AlertRuleType): boolean {
  return type === "witness_missed_block" || type === "validator_offline_report";
}

/** Rule types whose targets are an organization's block producers (target kind org_producers). */
export function isProducerRuleType(type: AlertRuleType): boolean {
  return RULE_TYPES[type].targets === "producer";
}

/** Stored in alert_rules.params. */
export const RuleParams = z.object({
  threshold: z.number().finite().nonnegative(),
  /** Lower tier; null = no degraded tier. Must be below the threshold. */
  degraded: z.number().finite().nonnegative().nullable().default(null),
  /** Resolve only once the value is below this (hysteresis). Default: the degraded tier, else the threshold. */
  resolveBelow: z.number().finite().nonnegative().nullable().default(null),
  windowMinutes: z.number().int().min(0).max(1_440).default(0),
});
export type RuleParams = z.infer<typeof RuleParams>;

export interface ResolvedThresholds {
  threshold: number;
  degraded: number | null;
  resolveBelow: number;
  windowMinutes: number;
}

/** Validate params for a type (AppError VALIDATION with the field) and fill defaults. */
export function normaliseRuleParams(type: AlertRuleType, input: unknown): RuleParams {
  const info = RULE_TYPES[type];
  const raw = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const parsed = RuleParams.safeParse({
    threshold: raw.threshold ?? info.defaults.threshold,
    degraded: raw.degraded === undefined ? info.defaults.degraded : raw.degraded,
    resolveBelow: raw.resolveBelow ?? null,
    windowMinutes: raw.windowMinutes ?? info.defaults.windowMinutes,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? "threshold");
    throw new AppError("VALIDATION", `${field}: ${issue?.message ?? "invalid"}`, { details: { field } });
  }
  const p = parsed.data;
  const bad = (field: string, message: string): never => {
    throw new AppError("VALIDATION", message, { details: { field } });
  };
  if (p.threshold > info.max) bad("threshold", `The threshold must be at most ${info.max} ${info.unit}.`);
  if (p.threshold <= 0) bad("threshold", "The threshold must be above 0.");
  if (p.degraded !== null && p.degraded >= p.threshold) {
    bad("degraded", "The degraded tier must be below the firing threshold.");
  }
  if (p.resolveBelow !== null && p.resolveBelow > p.threshold) {
    bad("resolveBelow", "The resolve threshold cannot be above the firing threshold.");
  }
  if ((type === "endpoint_down" || type === "latency_p95" || isEventRuleType(type)) && p.windowMinutes < 1) {
    bad("windowMinutes", "This rule type needs a window of at least 1 minute.");
  }
  return p;
}

export function resolveThresholds(type: AlertRuleType, params: unknown): ResolvedThresholds {
  const parsed = RuleParams.safeParse(params);
  const p = parsed.success ? parsed.data : RuleParams.parse(RULE_TYPES[type].defaults);
  return {
    threshold: p.threshold,
    degraded: p.degraded,
    resolveBelow: p.resolveBelow ?? p.degraded ?? p.threshold,
    windowMinutes: p.windowMinutes || RULE_TYPES[type].defaults.windowMinutes,
  };
}
