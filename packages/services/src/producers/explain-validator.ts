import type { NodeAroundMiss } from "@rpcpulse/db/producers";
import { describeTrouble, findNodeTrouble, findSyncedNode, type NodeTrouble } from "./explain-miss.js";

/**
 * Advisor for a validator (pure), as the witness card's miss explanation: its newest offline report, or
 * leaving the active set / low era points while the organization's substrate node behind it shows
 * trouble, read against the organization's own nodes on that network (node_samples over the window
 * before it: lag, a head that stopped, no peers, listen-queue overflows, free memory below 5 %) and
 * against whether the organization's nodes hold the on-chain session keys (author_hasSessionKeys).
 * It says what to do (rotate keys on a synced backup node: author_rotateKeys, then session.setKeys);
 * RPC Pulse holds no key, calls no unsafe method for it and submits no extrinsic.
 */

export type ValidatorTrigger =
  | { kind: "offline"; block: number; era: number; at: Date }
  | { kind: "left-set"; status: "waiting" | "inactive"; at: Date }
  | { kind: "low-points"; pointsShare: number; at: Date };

export interface ValidatorExplanation {
  trigger: ValidatorTrigger["kind"];
  /** The event in words ("Reported offline in block #1234 (era 56)"). */
  event: string;
  /** When the evidence window ends (the report, leaving the set, or now). */
  at: string;
  /** Substrate nodes of the organization whose telemetry over the window shows trouble. */
  suspects: NodeTrouble[];
  /** Session keys: held by one of the organization's nodes (true), by none (false), not known (null). */
  keys: { held: boolean | null; node: string | null; evidence: string };
  /** A synced substrate node to validate from instead, and how (never performed). */
  backup: { node: string; howTo: string } | null;
  summary: string;
}

/** Session length per network (im-online reports a validator silent for a whole session); others: 1 h. */
const SESSION_MS: Record<string, number> = { polkadot: 4 * 3_600_000, kusama: 3_600_000 };
const HOUR_MS = 3_600_000;

/** The evidence window before the event: the session an offline report is about, else the hour before. */
export function validatorEvidenceWindow(trigger: ValidatorTrigger, network: string): { from: Date; to: Date } {
  const span = trigger.kind === "offline" ? (SESSION_MS[network] ?? HOUR_MS) : HOUR_MS;
  return { from: new Date(trigger.at.getTime() - span), to: trigger.at };
}

function describeEvent(t: ValidatorTrigger): string {
  if (t.kind === "offline") return `Reported offline in block #${t.block} (era ${t.era})`;
  if (t.kind === "left-set") return `Left the active set (${t.status === "waiting" ? "waiting" : "not validating"})`;
  return `Era points at ${Math.round(t.pointsShare * 100)} % of the set's median`;
}

function describeKeys(
  v: { keysOnNode: boolean | null; keysNode: string | null; sessionKeys: string | null },
  networkName: string,
): ValidatorExplanation["keys"] {
  if (v.keysOnNode === true) {
    return {
      held: true,
      node: v.keysNode,
      evidence: `${v.keysNode ?? "One of your nodes"} holds the on-chain session keys (author_hasSessionKeys answered true).`,
    };
  }
  if (v.keysOnNode === false) {
    const keys = v.sessionKeys ? ` ${v.sessionKeys.slice(0, 10)}…${v.sessionKeys.slice(-6)}` : "";
    return {
      held: false,
      node: null,
      evidence:
        `None of your nodes on ${networkName} holds the on-chain session keys${keys} (author_hasSessionKeys answered ` +
        `false): the chain expects heartbeats and blocks signed with keys no node of yours has.`,
    };
  }
  return {
    held: null,
    node: null,
    evidence: `Not known: no node of yours on ${networkName} answered author_hasSessionKeys (an unsafe RPC method the node must allow).`,
  };
}

function rotateHowTo(node: string, account: string): string {
  return (
    `${node} is in sync: on it, call author_rotateKeys (locally; an unsafe RPC method) to generate new session keys, ` +
    `then submit session.setKeys(<those keys>, 0x) for ${account.slice(0, 8)}… from its controller (polkadot.js apps, ` +
    `Developer → Extrinsics); they take effect from the session after next. Stop the old validator only once they ` +
    `are active, and never run two validators with the same keys (equivocation is slashed). RPC Pulse never rotates ` +
    `keys or submits extrinsics.`
  );
}

/**
 * The explanation of a validator's trouble (see file comment). Leaving the set and low era points are
 * explained only when the substrate node behind it (the one holding the keys, else any of the
 * organization's substrate nodes on the network) shows trouble; an offline report always is. null: nothing
 * to explain.
 */
export function explainValidatorTrouble(
  nodes: readonly NodeAroundMiss[],
  input: {
    trigger: ValidatorTrigger;
    account: string;
    networkName: string;
    blockIntervalMs: number;
    keysOnNode: boolean | null;
    keysNode: string | null;
    sessionKeys: string | null;
  },
): ValidatorExplanation | null {
  const substrate = nodes.filter((n) => n.apiFamily === undefined || n.apiFamily === "substrate");
  const suspects = findNodeTrouble(substrate, { blockIntervalMs: input.blockIntervalMs });
  const behind = input.keysNode ? suspects.filter((s) => s.node === input.keysNode) : suspects;
  if (input.trigger.kind !== "offline" && behind.length === 0) return null;
  const keys = describeKeys(input, input.networkName);
  const troubled = behind.length > 0 ? behind : suspects;
  // Move when the chain expects keys no node holds, or when the node validating (the key holder, else
  // any of the organization's substrate nodes) is in trouble; to a synced node other than the holder.
  const needsMove = keys.held === false || (keys.held === true ? behind.length > 0 : suspects.length > 0);
  const healthy = findSyncedNode(substrate, suspects, (n) => n.name !== input.keysNode);
  const backup = healthy && needsMove ? { node: healthy.name, howTo: rotateHowTo(healthy.name, input.account) } : null;
  const event = describeEvent(input.trigger);
  const reporting = substrate.some((n) => n.samples > 0);
  const cause =
    suspects.length > 0
      ? `${event}: it coincides with ${describeTrouble(troubled)}.`
      : !reporting
        ? `${event}: no substrate node of yours on ${input.networkName} reported telemetry over the session before it; ` +
          `run the agent beside the validator to see its lag, peers and memory when it happens.`
        : `${event}: no node of yours on ${input.networkName} shows trouble over the session before it (or none reports telemetry); ` +
          `check that the validator process runs with its session keys and reaches its peers.`;
  const keysLine = keys.held === false ? ` ${keys.evidence}` : "";
  return {
    trigger: input.trigger.kind,
    event,
    at: input.trigger.at.toISOString(),
    suspects: troubled,
    keys,
    backup,
    summary: `${cause}${keysLine}`,
  };
}
