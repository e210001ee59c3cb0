/**
 * Human text for alerts and auto-incidents, chain-aware: lag is told in blocks and in time using
 * the network's block interval from the chain catalogue ("14 blocks behind (~42 s) for 6 minutes").
 */
import type { AlertEventKind } from "./evaluator.js";
import { RULE_TYPES, type AlertRuleType, type ResolvedThresholds } from "./rule-params.js";

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} second${s === 1 ? "" : "s"}`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} minute${m === 1 ? "" : "s"}`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  if (h < 48) return rest ? `${h} h ${rest} min` : `${h} hour${h === 1 ? "" : "s"}`;
  return `${Math.round(h / 24)} days`;
}

const round = (v: number, digits = 0): string => {
  const f = 10 ** digits;
  return String(Math.round(v * f) / f);
};

export interface DescribeInput {
  type: AlertRuleType;
  value: number;
  thresholds: ResolvedThresholds;
  /** Network block interval (nodes); null for endpoints without a known network. */
  blockIntervalMs: number | null;
  /** Extra detail from the measurement (busiest IP, failing vantage points). */
  detail?: string | undefined;
}

/** The condition as a phrase: "14 blocks behind (~42 s)", "silent for 3 minutes", ... */
export function describeCondition(input: DescribeInput): string {
  const { type, value, blockIntervalMs, detail } = input;
  const extra = detail ? ` (${detail})` : "";
  switch (type) {
    case "node_down":
      return `agent silent for ${formatDuration(value * 1000)}`;
    case "lag": {
      const blocks = Math.round(value);
      const time = blockIntervalMs ? ` (~${formatDuration(blocks * blockIntervalMs)})` : "";
      return `${blocks} block${blocks === 1 ? "" : "s"} behind${time}`;
    }
    case "head_age":
      return `head block ${formatDuration(value * 1000)} old${blockIntervalMs ? ` (${Math.round((value * 1000) / blockIntervalMs)} block intervals)` : ""}`;
    case "endpoint_down":
      return `${round(value)}% of vantage points failing${extra}`;
    case "latency_p95":
      return `p95 latency ${round(value)} ms`;
    case "port_exhaustion":
      return `${round(value, 1)}% of ephemeral ports in use`;
    case "connection_flood":
      return `${Math.round(value)} connections from one remote IP${extra}`;
    case "suggestion":
      return `${Math.round(value)} high-severity tuning suggestion${Math.round(value) === 1 ? "" : "s"} open${extra}`;
    case "finality_stalled":
      return `finalized block unchanged for ${formatDuration(value * 1000)} while the head advances${extra}`;
    case "public_head_behind": {
      const blocks = Math.round(value);
      const time = blockIntervalMs ? ` (~${formatDuration(blocks * blockIntervalMs)})` : "";
      return `public URL ${blocks} block${blocks === 1 ? "" : "s"} behind the node's own head${time}${extra}`;
    }
    case "witness_missed_block": {
      const n = Math.round(value);
      return `${n} missed block${n === 1 ? "" : "s"}${extra}`;
    }
    case "witness_feed_stale":
      return `price feed ${round(value, 1)} h old${extra}`;
    case "witness_key_changed":
      return value > 0 ? `signing key changed or disabled${extra}` : "signing key unchanged";
    case "witness_version_behind":
      return value > 0 ? `version behind the majority${extra}` : "version at the majority";
    case "validator_left_active_set":
      return value > 0 ? `not in the active set${extra}` : "in the active set";
    case "validator_low_era_points":
      return `era points ${round(value)}% below the set's median${extra}`;
    case "validator_offline_report": {
      const n = Math.round(value);
      return `reported offline ${n} time${n === 1 ? "" : "s"}${extra}`;
    }
    case "consensus_client_behind": {
      const slots = Math.round(value);
      return `consensus client ${slots} slot${slots === 1 ? "" : "s"} behind the wall clock (~${formatDuration(slots * 12_000)})${extra}`;
    }
  }
}

export interface AlertText {
  title: string;
  body: string;
}

/** Title and body of an event: "hive-1: 14 blocks behind (~42 s) for 6 minutes". */
export function describeAlertEvent(
  input: DescribeInput & {
    kind: AlertEventKind;
    targetName: string;
    ruleName: string;
    /** How long the condition has held (episode start → now). */
    heldMs: number;
  },
): AlertText {
  const info = RULE_TYPES[input.type];
  const condition = describeCondition(input);
  const t = input.thresholds;
  const limits = `fires at ${t.threshold} ${info.unit}${t.degraded !== null ? `, degraded from ${t.degraded}` : ""}, resolves below ${t.resolveBelow}`;
  if (input.kind === "resolved") {
    return {
      title: `${input.targetName}: recovered (${input.ruleName})`,
      body: `Recovered after ${formatDuration(input.heldMs)}: now ${condition}. Rule "${input.ruleName}" (${limits}).`,
    };
  }
  const lead = input.kind === "degraded" ? "Degraded" : input.kind === "renotify" ? "Still firing" : "Firing";
  // Silence already carries its duration; other conditions say how long they have held.
  const phrase = input.type === "node_down" ? condition : `${condition} for ${formatDuration(input.heldMs)}`;
  return {
    title: `${input.targetName}: ${phrase}`,
    body: `${lead}: ${input.targetName}: ${phrase}. Rule "${input.ruleName}" (${limits}).`,
  };
}
