/**
 * Series → one number per (rule, target), "higher is worse" for every type. Pure: the inputs are
 * the typed rows @rpcpulse/db reads for an evaluation round.
 */
import type {
  EndpointAlertSnapshot,
  EndpointVantageProbes,
  NodeAlertSnapshot,
  NodeFinalityState,
} from "@rpcpulse/db/alerting";
import type { NodeBeaconLatest, NodePublicHeadRow } from "@rpcpulse/db/fleet";
import { measureConsensusBehind } from "./measure-beacon.js";
import { measureFinalityStalled, measurePublicHeadBehind } from "./measure-chain-heads.js";
import type { AlertRuleType } from "./rule-params.js";

export interface Measurement {
  /** null = no data this round (the state is kept). */
  value: number | null;
  detail?: string;
}

/** A sample older than this says nothing about "now" (the node-down rule covers silence). */
export const FRESH_SAMPLE_MS = 5 * 60_000;

/**
 * Quorum over vantage points: a vantage point with at least `minProbes` probes in the window is
 * "down" when fewer than half of them succeeded. Value = percent of counted vantage points down.
 */
export function measureEndpointDown(
  vantages: ReadonlyArray<
    Pick<EndpointVantageProbes, "vantagePointId" | "probes" | "okProbes"> & { vantageName?: string | null }
  >,
  options: { minProbes: number },
): Measurement {
  const counted = vantages.filter((v) => v.probes >= options.minProbes);
  if (counted.length === 0) return { value: null };
  const down = counted.filter((v) => v.okProbes * 2 < v.probes);
  const names = down.map((v) => v.vantageName ?? v.vantagePointId.slice(0, 8));
  return {
    value: (down.length / counted.length) * 100,
    detail: `${down.length} of ${counted.length} vantage points${names.length ? `: ${names.slice(0, 5).join(", ")}` : ""}`,
  };
}

export interface NodeExtras {
  latencyP95: { p95: number | null; samples: number } | undefined;
  topRemoteIp: { ip: string; conns: number } | undefined;
  suggestions: { open: number; title: string | null } | undefined;
  /** finality_stalled: the node's finality state (readNodeFinalityStates). */
  finality?: NodeFinalityState | undefined;
  /** public_head_behind: the latest check of its public URL (listNodeHeads). */
  publicHead?: NodePublicHeadRow | null | undefined;
  /** consensus_client_behind: the newest Beacon API reading (listNodeBeaconLatest). */
  beacon?: NodeBeaconLatest | undefined;
}

export function measureNode(type: AlertRuleType, node: NodeAlertSnapshot, extras: NodeExtras, now: Date): Measurement {
  const fresh = node.sampleTime !== null && now.getTime() - node.sampleTime.getTime() <= FRESH_SAMPLE_MS;
  switch (type) {
    case "node_down": {
      const last = node.lastSeenAt ?? node.createdAt;
      return { value: Math.max(0, (now.getTime() - last.getTime()) / 1000) };
    }
    case "lag":
      return { value: fresh && node.lagBlocks !== null ? Math.max(0, node.lagBlocks) : null };
    case "head_age":
      return { value: fresh && node.headAgeMs !== null ? Math.max(0, node.headAgeMs / 1000) : null };
    case "latency_p95":
      return { value: extras.latencyP95?.p95 ?? null };
    case "port_exhaustion": {
      if (!fresh || node.ephemeralInUse === null || !node.ephemeralRange) return { value: null };
      const pct = (node.ephemeralInUse / node.ephemeralRange) * 100;
      return {
        value: pct,
        detail: `${node.ephemeralInUse} of ${node.ephemeralRange} ports${node.timeWaitOut !== null ? `, ${node.timeWaitOut} outbound TIME_WAIT` : ""}`,
      };
    }
    case "connection_flood": {
      if (!fresh) return { value: null };
      const top = extras.topRemoteIp;
      return top ? { value: top.conns, detail: `from ${top.ip}` } : { value: 0 };
    }
    case "suggestion": {
      const s = extras.suggestions;
      return s && s.open > 0 ? { value: s.open, ...(s.title ? { detail: s.title } : {}) } : { value: 0 };
    }
    case "finality_stalled":
      return measureFinalityStalled(extras.finality, now, { freshMs: FRESH_SAMPLE_MS });
    case "public_head_behind":
      return measurePublicHeadBehind(extras.publicHead, node.blockIntervalMs, now, { freshMs: FRESH_SAMPLE_MS });
    case "consensus_client_behind":
      return measureConsensusBehind(extras.beacon, now, { freshMs: FRESH_SAMPLE_MS });
    case "endpoint_down":
    case "witness_missed_block":
    case "witness_feed_stale":
    case "witness_key_changed":
    case "witness_version_behind":
    case "validator_left_active_set":
    case "validator_low_era_points":
    case "validator_offline_report":
      return { value: null };
  }
}

export function measureEndpoint(type: AlertRuleType, endpoint: EndpointAlertSnapshot): Measurement {
  if (type === "endpoint_down") return measureEndpointDown(endpoint.vantages, { minProbes: 2 });
  if (type === "latency_p95") return { value: endpoint.p95Ms };
  return { value: null };
}
