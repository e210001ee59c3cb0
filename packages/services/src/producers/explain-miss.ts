import type { NodeAroundMiss } from "@rpcpulse/db/producers";

/**
 * Advisor for a witness miss (pure): does the miss coincide with the organization's own node on that
 * network being in trouble (lag, stalled head, listen-queue overflows, low memory, no peers), and is
 * there a second node of the organization, in sync, that could sign instead? RPC Pulse explains the
 * switch; it never performs it (it holds no key). The node-trouble helpers serve the validator
 * explanation too (explain-validator.ts).
 */
export interface NodeTrouble {
  node: string;
  /** The evidence in words ("12 blocks behind the network", …). */
  evidence: string[];
}

export interface MissExplanation {
  /** Nodes whose telemetry around the miss shows trouble, with the evidence in words. */
  suspects: NodeTrouble[];
  /** A node in sync that could take over signing, with how; null when there is none. */
  backup: { node: string; howTo: string } | null;
  summary: string;
}

const LAG_BLOCKS = 3;
/** A head older than this many block intervals has stopped (Hive's 3 s blocks: 9 s). */
const STALLED_INTERVALS = 3;
const MEM_SHARE = 0.05;
const HIVE_BLOCK_MS = 3_000;

/** The nodes whose telemetry in the window shows trouble, with the evidence. Pure. */
export function findNodeTrouble(nodes: readonly NodeAroundMiss[], options: { blockIntervalMs: number }): NodeTrouble[] {
  const stalledMs = STALLED_INTERVALS * options.blockIntervalMs;
  const suspects: NodeTrouble[] = [];
  for (const n of nodes) {
    if (n.samples === 0) continue;
    const evidence: string[] = [];
    if ((n.maxLagBlocks ?? 0) >= LAG_BLOCKS) evidence.push(`${n.maxLagBlocks} blocks behind the network`);
    if ((n.maxHeadAgeMs ?? 0) >= stalledMs)
      evidence.push(`head not advancing for ${Math.round((n.maxHeadAgeMs ?? 0) / 1000)} s`);
    if ((n.listenOverflows ?? 0) > 0) evidence.push(`${n.listenOverflows} listen-queue overflows`);
    if (n.minMemAvailableShare !== null && n.minMemAvailableShare < MEM_SHARE)
      evidence.push(`only ${(n.minMemAvailableShare * 100).toFixed(1)} % of memory available`);
    if (n.minPeers === 0) evidence.push("no peers");
    if (evidence.length > 0) suspects.push({ node: n.name, evidence });
  }
  return suspects;
}

/** A node that reported, shows no trouble and is in sync at its newest sample (optionally of a family). */
export function findSyncedNode(
  nodes: readonly NodeAroundMiss[],
  suspects: readonly NodeTrouble[],
  accept: (n: NodeAroundMiss) => boolean = () => true,
): NodeAroundMiss | undefined {
  const names = new Set(suspects.map((s) => s.node));
  return nodes.find((n) => n.samples > 0 && !names.has(n.name) && (n.lastLagBlocks ?? 0) < LAG_BLOCKS && accept(n));
}

/** "trouble on a (12 blocks behind the network); b (no peers)". */
export function describeTrouble(suspects: readonly NodeTrouble[]): string {
  return `trouble on ${suspects.map((s) => `${s.node} (${s.evidence.join(", ")})`).join("; ")}`;
}

export function explainWitnessMiss(
  nodes: readonly NodeAroundMiss[],
  witness: { account: string; chain: "hive" | "steem" },
): MissExplanation {
  const suspects = findNodeTrouble(nodes, { blockIntervalMs: HIVE_BLOCK_MS });
  const healthy = findSyncedNode(nodes, suspects);
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
      : `The miss coincides with ${describeTrouble(suspects)}.`;
  return { suspects, backup, summary };
}
