import { versionAtLeast, formatVersion } from "../client-version.js";
import type { Rule } from "../engine.js";
import { fmt, maxOf, percentile, valuesOf, type Point } from "../metrics.js";
import { nethermindFlags, substrateFlags } from "../snippets/client.js";
import { sources } from "../sources.js";
import {
  configNumber,
  configValue,
  describeVerification,
  draft,
  enoughSamples,
  evidence,
  impactOf,
  series,
} from "./common.js";

const GIB = 1024 ** 3;
/**
 * Nethermind releases whose docs dropped the options (PR #254, 2025-01) and introduced RAM tiers
 * (PR #258, 2025-02). The release numbers are our mapping of those dates [assumption, see README].
 */
const NETHERMIND_REMOVED_SINCE = [1, 30, 0] as const;
const NETHERMIND_TIERS_SINCE = [1, 31, 0] as const;
const REMOVED_OPTIONS = [
  "Db.StateDbDisableCompression",
  "Db.MaxBytesPerSec",
  "Db.StateDbBlockSize",
  "Db.CompactionReadAhead",
];

const nethermindRemoved: Rule = {
  descriptor: {
    id: "nethermind-removed-options",
    title: "Unsupported Nethermind options in the node's config",
    families: ["ethereum"],
    clients: ["nethermind"],
    gate: `Nethermind ≥ ${NETHERMIND_REMOVED_SINCE.join(".")} (web3_clientVersion) with Db.StateDbDisableCompression, Db.MaxBytesPerSec, Db.StateDbBlockSize or Db.CompactionReadAhead set.`,
    watches: ["settings.clientConfig", "clientVersion"],
    kind: "obsolete-setting",
    snippetKinds: [],
    verificationMetric: "lag_blocks",
    sources: sources("nethermindPr254", "nethermindPerf"),
  },
  evaluate(ctx) {
    if (!versionAtLeast(ctx.client.version, NETHERMIND_REMOVED_SINCE)) return [];
    const cfg = ctx.input.settings?.clientConfig ?? {};
    const found = REMOVED_OPTIONS.filter((o) => cfg[o] !== undefined || cfg[`--${o}`] !== undefined);
    if (found.length === 0) return [];
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "obsolete-setting",
        title: `Remove unsupported Nethermind option${found.length > 1 ? "s" : ""}: ${found.join(", ")}`,
        severity: "low",
        impact: impactOf("low", found.length, 1, ">="),
        summary: `Nethermind ${formatVersion(ctx.client.version)} no longer supports ${found.join(", ")} (removed from the performance guide as "unsupported options"). Old tuning guides still recommend them; remove them from the config file, flags and NETHERMIND_* environment.`,
        evidence: found.map((o) =>
          evidence(ctx, {
            metric: "config_option",
            label: `${o} = ${cfg[o] ?? cfg[`--${o}`]}`,
            observed: 1,
            threshold: 0,
            comparison: ">",
            unit: "options",
          }),
        ),
        arithmetic: [
          `clientVersion ${ctx.client.raw} → ${formatVersion(ctx.client.version)} ≥ ${NETHERMIND_REMOVED_SINCE.join(".")}`,
        ],
        caveats: [
          "The memory settings the current guide recommends are RAM tiers (Pruning.CacheMb, Db.StateDbWriteBufferSize), not Init.MemoryHint.",
        ],
        expectedEffect: "A config limited to supported options.",
        verification: describeVerification(ctx, {
          metric: "lag_blocks",
          direction: "decrease",
          minimumWindowMinutes: 0,
          how: "Nothing to measure: the options disappear from the reported config.",
        }),
        sources: sources("nethermindPr254", "nethermindPerf"),
      }),
    ];
  },
};

/** A "32 GB" server reports about 31.3 GiB of MemTotal. */
const TIER_SLACK = 0.95;
const TIERS = [
  { minGb: 350, cacheMb: 4000, writeBuffer: 200_000_000, warmer: true, noCompression: true },
  { minGb: 128, cacheMb: 4000, writeBuffer: 200_000_000, warmer: true, noCompression: false },
  { minGb: 32, cacheMb: 2000, writeBuffer: 100_000_000, warmer: false, noCompression: false },
];

const nethermindMemory: Rule = {
  descriptor: {
    id: "nethermind-memory-tier",
    title: "Nethermind on a large-RAM host running default memory settings",
    families: ["ethereum"],
    clients: ["nethermind"],
    gate: `Nethermind ≥ ${NETHERMIND_TIERS_SINCE.join(".")}, MemTotal ≥ 32/128/350 GiB, and Pruning.CacheMb not set in the reported config.`,
    watches: ["mem_total", "settings.clientConfig"],
    kind: "change",
    snippetKinds: ["nethermind-flags"],
    verificationMetric: "latency_p95_ms",
    sources: sources("nethermindPerf"),
  },
  evaluate(ctx) {
    if (!versionAtLeast(ctx.client.version, NETHERMIND_TIERS_SINCE)) return [];
    if (configValue(ctx, "Pruning.CacheMb", "--Pruning.CacheMb") !== null) return [];
    const memTotal = maxOf(ctx.input.window.samples.map((s) => s.memTotal ?? 0)) ?? 0;
    const gb = memTotal / GIB;
    // MemTotal is a little below the installed size (kernel reservations): 5 % slack.
    const tier = TIERS.find((t) => gb >= t.minGb * TIER_SLACK);
    if (!tier || ctx.input.window.samples.length < ctx.t.minSamples) return [];
    const rocks = tier.noCompression
      ? '"block_based_table_factory={index_type=kBinarySearch;partition_filters=0;};compression=kNoCompression;allow_mmap_reads=1;"'
      : '"block_based_table_factory={index_type=kBinarySearch;partition_filters=0;};"';
    const flags = [
      { flag: "--Pruning.CacheMb", value: String(tier.cacheMb), comment: "pruning cache" },
      {
        flag: "--Db.StateDbWriteBufferSize",
        value: String(tier.writeBuffer),
        comment: "state DB write buffer (bytes)",
      },
      {
        flag: "--Db.StateDbAdditionalRocksDbOptions",
        value: rocks,
        comment: "state DB RocksDB options from the guide",
      },
      ...(tier.warmer
        ? [
            {
              flag: "--Db.StateDbEnableFileWarmer",
              value: "true",
              comment: "warm the state DB files into the page cache",
            },
          ]
        : []),
      ...(tier.noCompression
        ? [{ flag: "--Db.StateDbVerifyChecksum", value: "false", comment: "with uncompressed state" }]
        : []),
    ];
    const p95 = percentile(valuesOf(series(ctx, "latency_p95_ms")), 95);
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: `${this.descriptor.id}:${tier.minGb}`,
        kind: "change",
        title: `${fmt(gb)} GiB RAM: use Nethermind's ≥ ${tier.minGb} GB memory tier`,
        severity: "low",
        impact: impactOf("low", gb, tier.minGb, ">="),
        summary: `This host has ${fmt(gb)} GiB of RAM and Nethermind ${formatVersion(ctx.client.version)} runs without Pruning.CacheMb. The current performance guide lists settings for hosts with ≥ 32, ≥ 128 and ≥ 350 GB that trade RAM for faster block processing and RPC.`,
        evidence: [
          evidence(ctx, {
            metric: "mem_total_gib",
            label: "MemTotal",
            observed: Number(gb.toFixed(1)),
            threshold: tier.minGb,
            comparison: ">=",
            unit: "GiB",
          }),
          ...(p95 !== null
            ? [
                evidence(ctx, {
                  metric: "latency_p95_ms",
                  label: "RPC latency p95 (agent probe)",
                  observed: Number(p95.toFixed(1)),
                  threshold: 0,
                  comparison: ">=",
                  unit: "ms",
                }),
              ]
            : []),
        ],
        arithmetic: [
          `MemTotal ${fmt(memTotal)} B = ${fmt(gb, 1)} GiB ≥ ${tier.minGb} × ${TIER_SLACK} (MemTotal sits a little below installed RAM) → tier ≥ ${tier.minGb} GB`,
        ],
        snippets: [nethermindFlags(`Nethermind: ≥ ${tier.minGb} GB RAM tier`, flags)],
        caveats: [
          "Changes database size and CPU trade-offs" +
            (tier.noCompression ? "; without compression the state DB grows from ~160 GB to ~280 GB." : "."),
          "Init.MemoryHint is no longer the recommended knob; Db.MaxBytesPerSec and Db.StateDbDisableCompression are unsupported.",
        ],
        expectedEffect: "Lower block processing time and RPC latency on state-heavy calls.",
        verification: describeVerification(ctx, {
          metric: "latency_p95_ms",
          direction: "decrease",
          minimumWindowMinutes: 120,
          how: (w) => `Compare probe latency ${w} before and after (after the caches warm up).`,
        }),
        sources: sources("nethermindPerf", "nethermindConfig"),
      }),
    ];
  },
};

const nethermindPeersAtCap: Rule = {
  descriptor: {
    id: "nethermind-peers-at-cap",
    title: "Synced Nethermind at its peer cap while block processing falls behind",
    families: ["ethereum"],
    clients: ["nethermind"],
    gate: "Not syncing, median peers ≥ Network.MaxActivePeers (default 50) and median lag ≥ 2 blocks.",
    watches: ["peers", "lag_blocks", "syncing"],
    kind: "change",
    snippetKinds: ["nethermind-flags"],
    verificationMetric: "lag_blocks",
    sources: sources("nethermindPerf", "nethermindPr254"),
  },
  evaluate(ctx) {
    const peers = series(ctx, "peers");
    const lag = series(ctx, "lag_blocks");
    if (!enoughSamples(ctx, peers) || !enoughSamples(ctx, lag)) return [];
    if (ctx.input.window.samples.some((s) => s.syncing === true)) return [];
    const cap = configNumber(ctx, 50, "Network.MaxActivePeers", "--Network.MaxActivePeers");
    const medPeers = percentile(valuesOf(peers), 50)!;
    const medLag = percentile(valuesOf(lag), 50)!;
    if (medPeers < cap || medLag < 2) return [];
    const target = Math.max(10, Math.round(cap / 2));
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "change",
        title: `${fmt(medPeers)} peers (cap ${cap}) while ${fmt(medLag)} blocks behind`,
        severity: "low",
        impact: impactOf("low", medLag, 2, ">="),
        summary: `The node is synced and at its peer cap, yet it trails the head by ${fmt(medLag)} blocks. Nethermind's guide: reducing MaxActivePeers "may help with attestation performance" (less networking work per block). Try half the cap and measure.`,
        evidence: [
          evidence(ctx, {
            metric: "peers",
            label: "Peers",
            observed: medPeers,
            threshold: cap,
            comparison: ">=",
            unit: "peers (median)",
            points: peers,
          }),
          evidence(ctx, {
            metric: "lag_blocks",
            label: "Blocks behind",
            observed: medLag,
            threshold: 2,
            comparison: ">=",
            unit: "blocks (median)",
            points: lag,
          }),
        ],
        arithmetic: [`MaxActivePeers ${cap} / 2 = ${target}`],
        snippets: [
          nethermindFlags("Nethermind: fewer peers", [
            { flag: "--Network.MaxActivePeers", value: String(target), comment: `was ${cap}` },
          ]),
        ],
        caveats: [
          "Fewer peers slows a resync; raise it again while syncing.",
          'The old "20 peers after sync" tip is no longer in the guide: measure instead of copying a number.',
        ],
        expectedEffect: "Lag back to 0–1 blocks.",
        verification: describeVerification(ctx, {
          metric: "lag_blocks",
          direction: "decrease",
          minimumWindowMinutes: 60,
          how: (w) => `Compare lag ${w} before and after.`,
        }),
        sources: sources("nethermindPerf", "nethermindPr254"),
      }),
    ];
  },
};

const SUBSTRATE_DEFAULT_RPC_CONNECTIONS = 100;

const substrateRpcCap: Rule = {
  descriptor: {
    id: "substrate-rpc-connection-cap",
    title: "Substrate RPC connections at --rpc-max-connections",
    families: ["substrate"],
    clients: [],
    gate: "Concurrent connections on the RPC port (node_remote_ips, RPC port among the agent's ports) ≥ 90 % of --rpc-max-connections (default 100).",
    watches: ["node_remote_ips on the RPC port", "--rpc-max-connections when reported"],
    kind: "change",
    snippetKinds: ["substrate-flags"],
    verificationMetric: "rpc_connections",
    sources: sources("substrateRpcConfig", "subway"),
  },
  evaluate(ctx) {
    const port = ctx.input.node.rpcPort ?? 9944;
    if (ctx.input.node.publicPorts.length && !ctx.input.node.publicPorts.includes(port)) return [];
    const totals = new Map<number, number>();
    for (const r of ctx.input.window.remoteIps)
      totals.set(r.time.getTime(), (totals.get(r.time.getTime()) ?? 0) + r.connections);
    const pts: Point[] = [...totals.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([t, v]) => ({ time: new Date(t), value: v }));
    if (!enoughSamples(ctx, pts)) return [];
    const cap = configNumber(ctx, SUBSTRATE_DEFAULT_RPC_CONNECTIONS, "--rpc-max-connections");
    const peak = maxOf(valuesOf(pts))!;
    if (peak < ctx.t.rpcConnCapRatio * cap) return [];
    const proposed = Math.max(cap * 2, Math.ceil((peak * 2) / 100) * 100);
    const severity = peak >= cap ? "high" : "medium";
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: `${this.descriptor.id}:${port}`,
        kind: "change",
        title: `${fmt(peak)} RPC connections against a cap of ${cap}`,
        severity,
        impact: impactOf(severity, peak, ctx.t.rpcConnCapRatio * cap, ">="),
        summary: `The node's RPC server accepts at most ${cap} connections${configValue(ctx, "--rpc-max-connections") ? "" : " (the default)"}; clients beyond that are refused. The peak was ${fmt(peak)}. Raise the cap, or put a gateway (e.g. Subway) in front that multiplexes clients over few upstream connections.`,
        evidence: [
          evidence(ctx, {
            metric: "rpc_connections",
            label: `Connections on port ${port}`,
            observed: peak,
            threshold: Math.ceil(ctx.t.rpcConnCapRatio * cap),
            comparison: ">=",
            unit: "connections",
            points: pts,
          }),
        ],
        arithmetic: [
          `Peak ${fmt(peak)} / cap ${cap} = ${fmt((peak / cap) * 100)} %`,
          `New cap: max(2 × ${cap}, 2 × ${fmt(peak)} rounded up to 100) = ${proposed}`,
        ],
        snippets: [
          substrateFlags("Substrate: RPC connection cap", [
            { flag: "--rpc-max-connections", value: String(proposed), comment: `was ${cap}` },
          ]),
        ],
        caveats: [
          "Each connection may hold up to 1024 subscriptions and buffers of up to 15 MB: size memory accordingly.",
          "A public endpoint should also set --rpc-rate-limit or sit behind a proxy with per-IP limits.",
        ],
        expectedEffect: "No refused connections at today's peak; peak concurrency may exceed the old cap.",
        verification: describeVerification(ctx, {
          metric: "rpc_connections",
          direction: "increase",
          minimumWindowMinutes: 60,
          how: "After raising the cap, peak concurrent connections can exceed the old cap instead of plateauing at it.",
        }),
        sources: sources("substrateRpcConfig", "subway"),
      }),
    ];
  },
};

export const CLIENT_RULES: readonly Rule[] = [
  nethermindRemoved,
  nethermindMemory,
  nethermindPeersAtCap,
  substrateRpcCap,
];
