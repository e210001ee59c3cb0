import type { Rule, RuleContext } from "../engine.js";
import { fmt } from "../metrics.js";
import { sources, type SourceKey } from "../sources.js";
import type { AdvisorSample, Snippet } from "../types.js";
import { describeVerification, draft, evidence, impactOf, series, unitNameOf } from "./common.js";

/** Block interval unknown: 15 minutes (two Ethereum epochs and some). */
const UNKNOWN_INTERVAL_TRIGGER_MS = 900_000;
/** The head must move at least this many blocks across the stall ("the head advances"). */
const MIN_HEAD_ADVANCE = 3;

const isNum = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);
const seconds = (ms: number) => `${fmt(ms / 1000)} s`;

/**
 * The trailing samples across which the finalized block did not advance (at least the last one),
 * among samples reporting both a head and a finalized block.
 */
function trailingFinalityStall(samples: readonly AdvisorSample[]): AdvisorSample[] {
  const known = samples.filter((s) => isNum(s.headBlock) && isNum(s.finalizedBlock));
  if (known.length === 0) return [];
  const final = known[known.length - 1]!.finalizedBlock!;
  let start = known.length - 1;
  while (start > 0 && known[start - 1]!.finalizedBlock! >= final) start--;
  return known.slice(start);
}

function triggerOf(ctx: RuleContext): { ms: number; text: string } {
  const interval = ctx.input.node.blockIntervalMs;
  if (!interval || interval <= 0) return { ms: UNKNOWN_INTERVAL_TRIGGER_MS, text: "block interval unknown: 15 min" };
  const ms = Math.max(ctx.t.finalityStallMinMs, ctx.t.finalityStallBlocks * interval);
  return {
    ms,
    text: `max(${seconds(ctx.t.finalityStallMinMs)}, ${ctx.t.finalityStallBlocks} × ${seconds(interval)} block interval) = ${seconds(ms)}`,
  };
}

const rpc = (port: number, method: string, params: string) =>
  `curl -s -H 'Content-Type: application/json' --data '{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}' http://127.0.0.1:${port}`;

/** What finality means on the node's family, how it stalls, and read-only checks. */
function explainFamily(ctx: RuleContext): { text: string; lines: string[]; caveats: string[]; src: SourceKey[] } {
  const port = ctx.input.node.rpcPort;
  switch (ctx.input.node.family) {
    case "hive": {
      const steem = ctx.client.kind === "steemd" || ctx.input.node.chain === "steem";
      const publicApi = steem ? "https://api.steemit.com" : "https://api.hive.blog";
      const call = `--data '{"jsonrpc":"2.0","id":1,"method":"database_api.get_dynamic_global_properties","params":{}}'`;
      return {
        text: `The last irreversible block advances once 2/3+1 of the top witnesses (15 of 21) have built on a block. A head that moves while it stays put means either this node follows a chain most witnesses are not on (a minority fork: its head_block_id differs from a public API node's at the same height), or the network has lost witness participation (then every node shows the same last irreversible block). A node on a minority fork serves transactions that will be undone: take it out of rotation and resync or replay it from trusted seed nodes.`,
        lines: [
          "# this node: head_block_number, head_block_id, last_irreversible_block_num",
          `curl -s -H 'Content-Type: application/json' ${call} http://127.0.0.1:${port ?? 8091}`,
          "# a public API node of the same chain, for comparison",
          `curl -s -H 'Content-Type: application/json' ${call} ${publicApi}`,
        ],
        caveats: ["On Hive and Steem the last irreversible block normally trails the head by about 15-20 blocks."],
        src: ["hiveProtocolConfig", "hiveWitnessSchedule"],
      };
    }
    case "substrate":
    case "sidecar": {
      const sidecar = ctx.input.node.family === "sidecar";
      return {
        text: `GRANDPA finalizes a block once 2/3 of the validators vote for it. When it stalls network-wide (validators on a faulty release, too many offline), block production goes on but nothing becomes final; a single node lags on finality when it misses GRANDPA votes and justifications (few peers, a long sync, a node that stays far behind). Exchanges, bridges and light clients wait for finality, so they stop seeing new blocks.`,
        lines: sidecar
          ? [
              "# the finalized and the best head as Sidecar serves them",
              `curl -s 'http://127.0.0.1:${port ?? 8080}/blocks/head/header?finalized=true'`,
              `curl -s 'http://127.0.0.1:${port ?? 8080}/blocks/head/header?finalized=false'`,
              "# then the same checks on the node Sidecar reads (SAS_SUBSTRATE_URL)",
            ]
          : [
              "# finalized head hash, then its header (number)",
              rpc(port ?? 9944, "chain_getFinalizedHead", "[]"),
              "# peers, isSyncing",
              rpc(port ?? 9944, "system_health", "[]"),
              "# GRANDPA round and votes (needs --rpc-methods unsafe on this node)",
              rpc(port ?? 9944, "grandpa_roundState", "[]"),
            ],
        caveats: [
          "Compare the finalized number with another node of the same network first: the same number there means the network is not finalizing and nothing on this host will fix it.",
        ],
        src: ["grandpaRpc", "substrateSystemRpc"],
      };
    }
    default:
      return {
        text: `After the merge an execution client learns its finalized block from its consensus client (engine_forkchoiceUpdated carries the finalized block hash); the network finalizes a checkpoint once 2/3 of the stake attests, normally every epoch (32 slots, 6.4 min). Non-finality network-wide happens when attestations fall below 2/3 (mainnet lost finality twice in May 2023); locally, a consensus client that is out of sync, disconnected or restarted from a bad checkpoint keeps handing over an old finalized block.`,
        lines: [
          "# the execution client's finalized block (number, timestamp)",
          rpc(port ?? 8545, "eth_getBlockByNumber", '["finalized",false]'),
          "# the consensus client's view (beacon API; port 5052 for Lighthouse/Nimbus, 3500 Prysm, 5051 Teku, 9596 Lodestar)",
          "curl -s http://127.0.0.1:5052/eth/v1/beacon/states/head/finality_checkpoints",
          "curl -s http://127.0.0.1:5052/eth/v1/node/syncing",
        ],
        caveats: [
          "On Ethereum the finalized block normally trails the head by 64-95 blocks and moves in steps of 32 once per epoch.",
        ],
        src: ["ethJsonRpc", "beaconFinality", "ethGasper"],
      };
  }
}

const finalityStall: Rule = {
  descriptor: {
    id: "finality-stalled",
    title: "Finality stalled while the head advances",
    families: ["hive", "ethereum", "substrate", "sidecar"],
    clients: [],
    gate: "The finalized (Hive/Steem: last irreversible) block did not advance across ≥ minSamples trailing samples spanning ≥ max(finalityStallMinMs, finalityStallBlocks × block interval) (15 min when the interval is unknown) while the head moved ≥ 3 blocks. Explanation per family: Hive/Steem witness confirmations and minority forks; Substrate GRANDPA votes; Ethereum consensus-client finality and network non-finality; read-only checks, and lag to tell a node-local stall from a network-wide one.",
    watches: ["finalized_block", "head_block", "lag_blocks", "peers"],
    kind: "explanation",
    snippetKinds: ["shell"],
    verificationMetric: "finality_lag_blocks",
    sources: sources("hiveWitnessSchedule", "grandpaRpc", "beaconFinality", "ethGasper"),
  },
  evaluate(ctx) {
    const run = trailingFinalityStall(ctx.input.window.samples);
    if (run.length < ctx.t.minSamples) return [];
    const first = run[0]!;
    const last = run[run.length - 1]!;
    const spanMs = last.time.getTime() - first.time.getTime();
    const trigger = triggerOf(ctx);
    const headMoved = last.headBlock! - first.headBlock!;
    // A head that stands still too is the stalled-head rule's case, not this one.
    if (spanMs < trigger.ms || headMoved < MIN_HEAD_ADVANCE) return [];
    const finalized = last.finalizedBlock!;
    const notFinal = last.headBlock! - finalized;
    const lag = series(ctx, "lag_blocks").filter((p) => p.time >= first.time);
    const lastLag = lag.length > 0 ? lag[lag.length - 1]!.value : null;
    const peers = series(ctx, "peers");
    const lastPeers = peers.length > 0 ? peers[peers.length - 1]!.value : null;
    const severity = spanMs >= 3 * trigger.ms ? "critical" : "high";
    const family = explainFamily(ctx);
    const where =
      lastLag === null
        ? "Compare its finalized block with another node of the network: the same number there means the network itself is not finalizing; a higher one means this node's finality is stuck."
        : lastLag >= ctx.t.lagBlocks
          ? `The node is also ${fmt(lastLag)} blocks behind the network head: it may be on a fork or still catching up; that comes first.`
          : `Its head keeps up with the network (lag ${fmt(lastLag)} blocks), so only finality is stuck: compare its finalized block with another node to tell a network-wide stall (nothing to fix here; apps waiting for finality wait) from a node-local one.`;
    const shell: Snippet = {
      kind: "shell",
      title: "Read-only checks: finality here and elsewhere",
      content: [...family.lines, `journalctl -u ${unitNameOf(ctx)} --since '-30 min' --no-pager | tail -n 50`, ""].join(
        "\n",
      ),
      applyCommand: "run on the node host (read-only; adjust ports and the unit name)",
    };
    const lagPoints = series(ctx, "finality_lag_blocks");
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "explanation",
        title: `Finalized block #${fmt(finalized)} unchanged for ${seconds(spanMs)} while the head moved ${fmt(headMoved)} blocks`,
        severity,
        impact: impactOf(severity, spanMs, trigger.ms, ">="),
        summary: [
          `The head advanced from #${fmt(first.headBlock!)} to #${fmt(last.headBlock!)}, but the finalized block stayed at #${fmt(finalized)} for ${seconds(spanMs)} (threshold ${seconds(trigger.ms)}): ${fmt(notFinal)} blocks are not final, and callers that read "finalized" see nothing new.`,
          where,
          ...(lastPeers === 0 ? ["It has no peers."] : []),
          family.text,
        ].join(" "),
        evidence: [
          evidence(ctx, {
            metric: "finalized_unchanged_s",
            label: "Finalized block unchanged while the head moves",
            observed: Math.round(spanMs / 1000),
            threshold: Math.round(trigger.ms / 1000),
            comparison: ">=",
            unit: "s",
          }),
          evidence(ctx, {
            metric: "finality_lag_blocks",
            label: "Blocks not yet final (head − finalized)",
            observed: notFinal,
            threshold: headMoved,
            comparison: ">=",
            unit: "blocks",
            points: lagPoints,
          }),
        ],
        arithmetic: [
          `Stall threshold: ${trigger.text}`,
          `Finalized #${fmt(finalized)} in the last ${run.length} samples: ${first.time.toISOString()} → ${last.time.toISOString()} = ${seconds(spanMs)}`,
          `Head #${fmt(first.headBlock!)} → #${fmt(last.headBlock!)} = +${fmt(headMoved)} blocks; head − finalized = ${fmt(notFinal)}`,
          lastLag === null
            ? "Lag behind the network: not reported"
            : `Lag behind the network at the last sample: ${fmt(lastLag)} blocks`,
        ],
        snippets: [shell],
        caveats: family.caveats,
        expectedEffect:
          "Once finality resumes (network-wide, or after the node's own cause is fixed), the finalized block catches up and head − finalized returns to its usual depth.",
        verification: describeVerification(ctx, {
          metric: "finality_lag_blocks",
          direction: "decrease",
          minimumWindowMinutes: 30,
          how: (w) => `Compare head − finalized ${w} before and after finality resumed.`,
        }),
        sources: sources(...family.src),
      }),
    ];
  },
};

export const FINALITY_RULES: readonly Rule[] = [finalityStall];
