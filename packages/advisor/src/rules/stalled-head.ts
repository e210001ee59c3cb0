import type { Rule, RuleContext } from "../engine.js";
import { fmt, pct, type Point } from "../metrics.js";
import { nethermindFlags } from "../snippets/client.js";
import { sources, type SourceKey } from "../sources.js";
import type { AdvisorSample, Snippet } from "../types.js";
import { configValue, describeVerification, draft, evidence, impactOf, series, unitNameOf } from "./common.js";
import { explainConsensusCause } from "./consensus-cause.js";

/** Block interval unknown: the KB's critical head age for Ethereum (A9 R20, 5 min). */
const UNKNOWN_INTERVAL_TRIGGER_MS = 300_000;
/** Stalled this long (or with no peers) is critical (KB A9 R20: > 5 min). */
const CRITICAL_MS = 300_000;
/** Nethermind warns at 5 % free storage and shuts down at 1 % (HealthChecks.LowStorageSpace*). */
const LOW_DISK_RATIO = 0.05;

const isNum = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);
const seconds = (ms: number) => `${fmt(ms / 1000)} s`;

/**
 * Did the head move between two samples? By head number when both have one; else by head age: a
 * head that did not move ages with the clock, a new head is younger. Unknown counts as moved, so
 * missing data never reads as a stall.
 */
function advanced(a: AdvisorSample, b: AdvisorSample): boolean {
  if (isNum(a.headBlock) && isNum(b.headBlock)) return b.headBlock > a.headBlock;
  if (isNum(a.headAgeMs) && isNum(b.headAgeMs))
    return b.headAgeMs < a.headAgeMs + (b.time.getTime() - a.time.getTime()) / 2;
  return true;
}

/** The trailing samples across which the head did not advance (at least the last one). */
function trailingStall(samples: readonly AdvisorSample[]): AdvisorSample[] {
  const known = samples.filter((s) => isNum(s.headBlock) || isNum(s.headAgeMs));
  if (known.length === 0) return [];
  let start = known.length - 1;
  while (start > 0 && !advanced(known[start - 1]!, known[start]!)) start--;
  return known.slice(start);
}

/** Head unchanged this long fires the rule: relative to the chain's block time when known. */
function triggerOf(ctx: RuleContext): { ms: number; text: string } {
  const interval = ctx.input.node.blockIntervalMs;
  if (!interval || interval <= 0)
    return { ms: UNKNOWN_INTERVAL_TRIGGER_MS, text: "block interval unknown: 5 min (KB R20 critical head age)" };
  const ms = Math.max(ctx.t.stalledHeadMinMs, ctx.t.stalledHeadBlocks * interval);
  return {
    ms,
    text: `max(${seconds(ctx.t.stalledHeadMinMs)}, ${ctx.t.stalledHeadBlocks} × ${seconds(interval)} block interval) = ${seconds(ms)}`,
  };
}

function rpcUrl(ctx: RuleContext, fallbackPort: number): string {
  return `http://127.0.0.1:${ctx.input.node.rpcPort ?? fallbackPort}`;
}

function rpcCall(url: string, method: string, params: string): string {
  return `curl -s -H 'Content-Type: application/json' --data '{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}' ${url}`;
}

/** Read-only checks per client (KB A8 head/sync calls, A4/A5 disk and peers) and its sources. */
function checksFor(ctx: RuleContext): { snippets: Snippet[]; checks: string; caveats: string[]; src: SourceKey[] } {
  const unit = unitNameOf(ctx);
  // The client's own calls and a disk check, then the last half hour of its log.
  const shell = (lines: string[]): Snippet => ({
    kind: "shell",
    title: "Read-only checks: sync state, peers, disk, log",
    content: [...lines, `journalctl -u ${unit} --since '-30 min' --no-pager | tail -n 50`, ""].join("\n"),
    applyCommand: "run on the node host (read-only; adjust the unit name and data directory)",
  });
  switch (ctx.client.kind) {
    case "hived":
    case "steemd": {
      const url = rpcUrl(ctx, 8091);
      const p2pPort = Number(configValue(ctx, "p2p-endpoint")?.split(":").pop() ?? 2001) || 2001;
      // shared-file-dir defaults to "blockchain" inside the data directory; a set value is quoted as is.
      const stateDir = configValue(ctx, "shared-file-dir")?.replace(/"/g, "");
      const dirs = `"\${HIVED_DATA_DIR:-.}"${stateDir && /^[\w./-]+$/.test(stateDir) ? ` '${stateDir}'` : ""}`;
      return {
        snippets: [
          shell([
            "# head_block_number, time (UTC) and last_irreversible_block_num",
            rpcCall(url, "database_api.get_dynamic_global_properties", "{}"),
            "# established P2P connections (hived's API reports no peer count)",
            `ss -Htn state established '( sport = :${p2pPort} or dport = :${p2pPort} )' | wc -l`,
            "# free space of the data directory and of shared-file-dir (the state)",
            `df -h ${dirs}`,
          ]),
        ],
        checks:
          "hived reports no peer count: check that the P2P port is listening and has established peers (seed nodes), then the disk (hived wants fast local SSD/NVMe, and the state in shared-file-dir must fit its filesystem), then hived's log for why it stopped.",
        caveats: [
          "hived's head time is serialized without a timezone suffix: read it as UTC.",
          "p2p-seed-node lines you set replace hived's built-in seed list.",
        ],
        src: ["hiveProtocolConfig", "hivedP2p", "hivedChainPlugin", "hiveExchangeGuide"],
      };
    }
    case "substrate": {
      const url = rpcUrl(ctx, 9944);
      return {
        snippets: [
          shell([
            "# peers, isSyncing, shouldHavePeers",
            rpcCall(url, "system_health", "[]"),
            "# startingBlock, currentBlock, highestBlock",
            rpcCall(url, "system_syncState", "[]"),
            `df -h "\${NODE_BASE_PATH:-.}"`,
          ]),
        ],
        checks:
          "system_health tells which case it is: peers 0 while shouldHavePeers means there is no one to import from; isSyncing with a head that does not move means the sync itself is stuck. Then check the disk and the node's log.",
        caveats: ["Development chains report shouldHavePeers=false: zero peers is normal there."],
        src: ["substrateSystemRpc", "substrateNetworkParams"],
      };
    }
    default: {
      const url = rpcUrl(ctx, 8545);
      const nethermind = ctx.client.kind === "nethermind";
      const snippets: Snippet[] = [
        shell([
          "# false when not syncing, else {startingBlock, currentBlock, highestBlock}",
          rpcCall(url, "eth_syncing", "[]"),
          rpcCall(url, "net_peerCount", "[]"),
          "# the head block's timestamp",
          rpcCall(url, "eth_getBlockByNumber", '["latest",false]'),
          `df -h "\${DATA_DIR:-.}"`,
        ]),
      ];
      if (nethermind)
        snippets.push(
          nethermindFlags("Nethermind: expose /health so a balancer can drop the node while it is stalled", [
            {
              flag: "--HealthChecks.Enabled",
              value: "true",
              comment: "default false; /health reports stalled block processing and a silent consensus client",
            },
          ]),
        );
      return {
        snippets,
        checks:
          "After the merge an execution client imports only what its consensus client hands it: check that the consensus client is running and connected to this node; eth_syncing=false alone does not mean healthy. Then peers (net_peerCount), the disk, and the client's log.",
        caveats: nethermind
          ? [
              "Nethermind warns at 5 % free storage and shuts down at 1 % (HealthChecks.LowStorageSpaceWarningThreshold / ShutdownThreshold).",
              "Its health check also flags a consensus client silent for more than HealthChecks.MaxIntervalClRequestTime (300 s).",
            ]
          : [],
        src: nethermind ? ["ethJsonRpc", "nethermindConfig"] : ["ethJsonRpc", "gethFlags"],
      };
    }
  }
}

const stalledHead: Rule = {
  descriptor: {
    id: "stalled-head",
    title: "Head block not advancing",
    families: ["hive", "ethereum", "substrate"],
    clients: [],
    gate: "The head did not advance (same head number, else head age growing with the clock) across ≥ minSamples trailing samples spanning ≥ max(stalledHeadMinMs, stalledHeadBlocks × block interval), 5 min when the interval is unknown. Explanation with read-only checks per client: hived/steemd P2P, disk, log; Geth/Nethermind consensus client, peers, disk, log (Nethermind /health); Substrate system_health. Ethereum with a consensus client reported (agent --beacon-url): names it as the cause when it reports el_offline, does not answer, or is ≥ 4 slots behind the wall clock over the stall; optimistic while current points at the execution client.",
    watches: [
      "head_age_ms",
      "headBlock",
      "peers",
      "syncing",
      "lag_blocks",
      "diskFree / diskTotal",
      "beacon: slots behind, el_offline, optimistic",
    ],
    kind: "explanation",
    snippetKinds: ["shell", "nethermind-flags"],
    verificationMetric: "head_age_ms",
    sources: sources("ethJsonRpc", "nethermindConfig", "hiveProtocolConfig", "hivedP2p", "substrateSystemRpc"),
  },
  evaluate(ctx) {
    const run = trailingStall(ctx.input.window.samples);
    if (run.length < ctx.t.minSamples) return [];
    const first = run[0]!;
    const last = run[run.length - 1]!;
    const spanMs = last.time.getTime() - first.time.getTime();
    const trigger = triggerOf(ctx);
    const lastAge = isNum(last.headAgeMs) ? last.headAgeMs : null;
    if (spanMs < trigger.ms || (lastAge !== null && lastAge < trigger.ms)) return [];
    const stalledMs = Math.max(spanMs, lastAge ?? 0);
    const interval = ctx.input.node.blockIntervalMs;
    const peers = series(ctx, "peers").filter((p) => p.time >= first.time);
    const lastPeers = peers.length ? peers[peers.length - 1]!.value : null;
    const lag = series(ctx, "lag_blocks").filter((p) => p.time >= first.time);
    const diskRatio =
      isNum(last.diskFree) && isNum(last.diskTotal) && last.diskTotal > 0 ? last.diskFree / last.diskTotal : null;
    const severity = stalledMs >= CRITICAL_MS || lastPeers === 0 ? "critical" : "high";
    const head = isNum(last.headBlock) ? `#${fmt(last.headBlock)}` : "its head";
    const { snippets, checks, caveats, src } = checksFor(ctx);
    const cause = explainConsensusCause(ctx.input.window.beacon, ctx.input.window.beaconVersion, {
      from: first.time,
      to: last.time,
    });
    const signals = [
      ...(last.syncing === true
        ? ["It reports that it is syncing, yet the head does not move: the sync is stuck, not slow."]
        : []),
      ...(lastPeers === 0 ? ["It has no peers."] : []),
      ...(diskRatio !== null && diskRatio < LOW_DISK_RATIO ? [`Its disk has only ${pct(diskRatio, 1)} free.`] : []),
    ];
    const ages = series(ctx, "head_age_ms").map((p) => ({ time: p.time, value: p.value / 1000 }));
    const inSeconds = (metric: string, label: string, ms: number, points?: Point[]) =>
      evidence(ctx, {
        metric,
        label,
        observed: Math.round(ms / 1000),
        threshold: Math.round(trigger.ms / 1000),
        comparison: ">=",
        unit: "s",
        ...(points ? { points } : {}),
      });
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "explanation",
        title: `Head ${head} has not advanced for ${seconds(stalledMs)}${lastPeers === null ? "" : ` (${fmt(lastPeers)} peers)`}${cause?.title ?? ""}`,
        severity,
        impact: impactOf(severity, stalledMs, trigger.ms, ">="),
        summary: [
          `The node's head ${head} stayed the same for ${seconds(stalledMs)}, longer than ${seconds(trigger.ms)}${interval ? ` (${fmt(trigger.ms / interval)} block intervals)` : ""}: it is not importing blocks, and every caller reads stale state.`,
          ...(cause?.summary ?? []),
          ...signals,
          "No setting fixes this by itself; find the cause first.",
          checks,
        ].join(" "),
        evidence: [
          ...(lastAge === null ? [] : [inSeconds("head_age_ms", "Head block age", lastAge, ages)]),
          inSeconds("head_unchanged_s", "Head unchanged across samples", spanMs),
          ...(cause?.observed
            ? [
                evidence(ctx, {
                  metric: cause.observed.metric,
                  label: cause.observed.label,
                  observed: cause.observed.value,
                  threshold: cause.observed.threshold,
                  comparison: ">=",
                  unit: cause.observed.unit,
                  points: cause.points,
                }),
              ]
            : []),
        ],
        arithmetic: [
          `Stall threshold: ${trigger.text}`,
          `Head ${head} unchanged in the last ${run.length} samples: ${first.time.toISOString()} → ${last.time.toISOString()} = ${seconds(spanMs)}`,
          ...(lastAge === null
            ? []
            : [
                `Head age at the last sample ${seconds(lastAge)}${interval ? ` = ${fmt(lastAge / interval, 1)} block intervals` : ""}`,
              ]),
          ...(lag.length > 1
            ? [`Lag ${fmt(lag[0]!.value)} → ${fmt(lag[lag.length - 1]!.value)} blocks over the stall`]
            : []),
          lastPeers === null
            ? "Peers: not reported"
            : `Peers at the last sample: ${fmt(lastPeers)}${lastPeers > ctx.t.fewPeers ? " (enough: not a peering problem)" : ""}`,
          `Syncing: ${last.syncing === true ? "yes" : last.syncing === false ? "no" : "not reported"}`,
          ...(diskRatio === null ? [] : [`Disk free: ${pct(diskRatio, 1)}`]),
          ...(cause?.arithmetic ?? []),
        ],
        snippets: cause ? [cause.snippet, ...snippets] : snippets,
        caveats: [
          "A head that stops for a few blocks (missed slots, a short fork) is normal; this fires only when it stays put across the samples for the whole threshold.",
          ...caveats,
        ],
        expectedEffect: `Once the cause is fixed the head advances again and its age returns under ${interval ? `one block interval (${seconds(interval)})` : "a block interval"}.`,
        verification: describeVerification(ctx, {
          metric: "head_age_ms",
          direction: "decrease",
          minimumWindowMinutes: 30,
          how: (w) => `Compare head age ${w} before and after the fix (ignore the minutes of catch-up).`,
        }),
        sources: sources(...src),
      }),
    ];
  },
};

export const STALL_RULES: readonly Rule[] = [stalledHead];
