import { fmt, type Point } from "../metrics.js";
import type { AdvisorBeaconSample, Snippet } from "../types.js";

/**
 * Is the Ethereum consensus client why the execution head stands still? After the merge an execution
 * client imports only what its consensus client hands it (engine_newPayload / engine_forkchoiceUpdated),
 * so a stall of the execution head is often the consensus client's. Read from the agent's Beacon API
 * readings over the stall (https://ethereum.github.io/beacon-APIs/: /eth/v1/beacon/headers/head slot
 * against the wall-clock slot, /eth/v1/node/syncing sync_distance, is_optimistic, el_offline):
 * - el_offline: the consensus client cannot reach its execution client's engine API: nothing moves the
 *   head (engine URL, JWT secret, or it drives another EL);
 * - the Beacon API does not answer: the consensus client is down;
 * - its head CL_BEHIND_SLOTS or more behind the wall clock: it is behind, and the EL with it.
 * - optimistic while current: the consensus client has the chain but its EL has not validated it:
 *   the EL is the one stuck, named as such (not the consensus client's fault).
 * Anything else (no readings, a current non-optimistic consensus client): null, the rule says what it
 * said before.
 */

/** Slots behind the wall clock that make the consensus client the cause (48 s at 12 s slots). */
export const CL_BEHIND_SLOTS = 4;

export interface ConsensusCause {
  /** The consensus client is the cause (true), or it points at the execution client (false). */
  clIsCause: boolean;
  /** Appended to the title. */
  title: string;
  /** Sentences for the summary. */
  summary: string[];
  arithmetic: string[];
  /** Slots behind over the stall, for the evidence chart. */
  points: Point[];
  observed: { metric: string; label: string; value: number; threshold: number; unit: string } | null;
  snippet: Snippet;
}

const behindOf = (b: AdvisorBeaconSample): number | null => b.slotsBehind ?? b.syncDistance;

/** "Lighthouse/v7.1.0-8d1b2f8/x86_64-linux" → "Lighthouse v7.1.0-8d1b2f8"; null → "the consensus client". */
export function consensusClientName(version: string | null | undefined): string {
  if (!version) return "the consensus client";
  const [name, v] = version.split("/");
  return v ? `${name} ${v}` : (name ?? version);
}

function beaconChecks(): Snippet {
  const url = "${BEACON_URL:-http://127.0.0.1:5052}";
  return {
    kind: "shell",
    title: "Read-only checks of the consensus client (Beacon API)",
    content: [
      "# head_slot, sync_distance, is_syncing, is_optimistic, el_offline",
      `curl -s ${url}/eth/v1/node/syncing`,
      "# connected peers",
      `curl -s ${url}/eth/v1/node/peer_count`,
      "# the head's execution block (number, hash): compare with eth_getBlockByNumber latest on this node",
      `curl -s ${url}/eth/v1/beacon/blinded_blocks/head | grep -o '"block_number":"[0-9]*"\\|"block_hash":"0x[0-9a-f]*"'`,
      "# its engine API settings: the execution endpoint (port 8551) and the JWT secret file this node uses",
      "journalctl -u \"${CL_UNIT:-lighthouse}\" --since '-30 min' --no-pager | grep -iE 'execution|engine|jwt|offline' | tail -n 20",
      "",
    ].join("\n"),
    applyCommand: "run on the consensus client's host (read-only; BEACON_URL and CL_UNIT as yours)",
  };
}

export function explainConsensusCause(
  beacon: readonly AdvisorBeaconSample[] | undefined,
  version: string | null | undefined,
  stall: { from: Date; to: Date },
): ConsensusCause | null {
  const during = (beacon ?? []).filter((b) => b.time >= stall.from && b.time <= stall.to);
  const last = during[during.length - 1];
  if (!last) return null;
  const name = consensusClientName(version);
  const points = during.map((b) => ({ time: b.time, value: behindOf(b) })).filter((p): p is Point => p.value !== null);
  const lastOk = [...during].reverse().find((b) => b.ok);
  const base = (lines: string[]) => [`Consensus client readings over the stall: ${during.length} (${name})`, ...lines];
  if (last.ok && last.elOffline === true) {
    return {
      clIsCause: true,
      title: `: ${name} reports its execution client offline`,
      summary: [
        `The consensus client beside it (${name}) reports its execution client offline (el_offline): it does not reach this node's engine API, so nothing hands the node new blocks.`,
        "Check the execution endpoint (engine API, port 8551) and the JWT secret the consensus client is started with against this node's, then both logs.",
      ],
      arithmetic: base([`el_offline at the last reading (${last.time.toISOString()}): true`]),
      points,
      observed: null,
      snippet: beaconChecks(),
    };
  }
  if (!last.ok) {
    return {
      clIsCause: true,
      title: `: its consensus client's Beacon API does not answer`,
      summary: [
        `The consensus client beside it (${name}) does not answer its Beacon API${lastOk ? ` since ${lastOk.time.toISOString()}` : " over the whole stall"}: it is down or hung, and without it the execution client receives no blocks.`,
        "Start with the consensus client's service and log.",
      ],
      arithmetic: base([
        `Beacon API failing at the last reading (${last.time.toISOString()})${lastOk ? `; last answer ${lastOk.time.toISOString()}, head slot ${fmt(lastOk.headSlot ?? 0)}` : ""}`,
      ]),
      points,
      observed: null,
      snippet: beaconChecks(),
    };
  }
  const behind = behindOf(last);
  if (behind !== null && behind >= CL_BEHIND_SLOTS) {
    return {
      clIsCause: true,
      title: `: its consensus client ${name} is ${fmt(behind)} slots behind`,
      summary: [
        `The consensus client beside it (${name}) is ${fmt(behind)} slots behind the wall clock${last.syncing ? " and syncing" : ""}${last.peers !== null ? ` with ${fmt(last.peers)} peers` : ""}: the execution client follows its head, so it stands still with it. The cause is the consensus client, not this node.`,
        "Look at the consensus client first: its peers, its sync, its disk and its log.",
      ],
      arithmetic: base([
        `Slots behind at the last reading: ${fmt(behind)} (head slot ${fmt(last.headSlot ?? 0)}, sync distance ${last.syncDistance === null ? "?" : fmt(last.syncDistance)}) ≥ ${CL_BEHIND_SLOTS}`,
        ...(last.elCheck === "match"
          ? ["Its head's execution block is this node's head: it is the one driving this node"]
          : []),
      ]),
      points,
      observed: {
        metric: "beacon_slots_behind",
        label: "Consensus client slots behind the wall clock",
        value: behind,
        threshold: CL_BEHIND_SLOTS,
        unit: "slots",
      },
      snippet: beaconChecks(),
    };
  }
  if (last.optimistic === true) {
    return {
      clIsCause: false,
      title: `: the execution client has not validated what ${name} hands it`,
      summary: [
        `The consensus client beside it (${name}) is current (${behind === null ? "?" : fmt(behind)} slots behind) but optimistic: it imports blocks this execution client has not validated yet. The execution client is the one stuck (syncing, or failing to import), not the consensus client.`,
      ],
      arithmetic: base([
        `Optimistic at the last reading, ${behind === null ? "?" : fmt(behind)} slots behind (< ${CL_BEHIND_SLOTS})`,
      ]),
      points,
      observed: null,
      snippet: beaconChecks(),
    };
  }
  return null;
}
