import type { NodeAroundMiss } from "@rpcpulse/db";

/**
 * Advisor for a witness miss (pure): does the miss coincide with the organization's own node on that
 * network being in trouble (lag, stalled head, listen-queue overflows, low memory), and is there a
 * second node of the organization, in sync, that could sign instead? RPC Pulse explains the switch;
 * it never performs it (it holds no key).
 */
export interface MissExplanation {
  /** Nodes whose telemetry around the miss shows trouble, with the evidence in words. */
  suspects: Array<{ node: string; evidence: string[] }>;
  /** A node in sync that could take over signing, with how; null when there is none. */
  backup: { node: string; howTo: string } | null;
  summary: string;
}

const LAG_BLOCKS = 3;
const HEAD_AGE_MS = 9_000;
const MEM_SHARE = 0.05;

export function explainWitnessMiss(
  nodes: readonly NodeAroundMiss[],
  witness: { account: string; chain: "hive" | "steem" },
): MissExplanation {
  const suspects: MissExplanation["suspects"] = [];
  for (const n of nodes) {
    if (n.samples === 0) continue;
    const evidence: string[] = [];
    if ((n.maxLagBlocks ?? 0) >= LAG_BLOCKS) evidence.push(`${n.maxLagBlocks} blocks behind the network`);
    if ((n.maxHeadAgeMs ?? 0) >= HEAD_AGE_MS)
      evidence.push(`head not advancing for ${Math.round((n.maxHeadAgeMs ?? 0) / 1000)} s`);
    if ((n.listenOverflows ?? 0) > 0) evidence.push(`${n.listenOverflows} listen-queue overflows`);
    if (n.minMemAvailableShare !== null && n.minMemAvailableShare < MEM_SHARE)
      evidence.push(`only ${(n.minMemAvailableShare * 100).toFixed(1)} % of memory available`);
    if (evidence.length > 0) suspects.push({ node: n.name, evidence });
  }
  const suspectNames = new Set(suspects.map((s) => s.node));
  const healthy = nodes.find((n) => n.samples > 0 && !suspectNames.has(n.name) && (n.lastLagBlocks ?? 0) < LAG_BLOCKS);
  const tool = witness.chain === "hive" ? "the Hive wallet or beem/hive-js" : "steemd's cli_wallet or steem-js";
  const backup =
    healthy && suspects.length > 0
      ? {
          node: healthy.name,
          howTo:
            `${healthy.name} is in sync: if it runs the witness plugin with its own signing key, broadcast ` +
            `witness_set_properties (or update_witness) for @${witness.account} with that node's public key using ${tool}; ` +
            `the schedule uses the new key from the next round. RPC Pulse never changes keys.`,
        }
      : null;
  const summary =
    suspects.length === 0
      ? "No node of this organization on the network shows trouble around the miss (or none reports telemetry)."
      : `The miss coincides with trouble on ${suspects.map((s) => `${s.node} (${s.evidence.join(", ")})`).join("; ")}.`;
  return { suspects, backup, summary };
}
