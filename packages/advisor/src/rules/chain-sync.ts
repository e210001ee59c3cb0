import type { Rule, RuleContext } from "../engine.js";
import { fmt, percentile, valuesOf, type Point } from "../metrics.js";
import { gethFlags, hivedConfigSnippet, nethermindFlags, substrateFlags } from "../snippets/client.js";
import { sources, type SourceKey } from "../sources.js";
import type { Snippet } from "../types.js";
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

const NETHERMIND_DEFAULT_PEERS = 50;
const GETH_DEFAULT_PEERS = 50;
const SUBSTRATE_DEFAULT_OUT_PEERS = 15;

/** lag_blocks, or head age ÷ block interval when the server did not compute lag. */
function lagSeries(ctx: RuleContext): Point[] {
  const lag = series(ctx, "lag_blocks");
  if (lag.length > 0) return lag;
  const interval = ctx.input.node.blockIntervalMs;
  if (!interval) return [];
  return series(ctx, "head_age_ms").map((p) => ({ time: p.time, value: Math.floor(p.value / interval) }));
}

function peerSnippets(
  ctx: RuleContext,
  medianPeers: number,
): { snippets: Snippet[]; arithmetic: string[]; src: SourceKey[] } {
  const arithmetic: string[] = [];
  const snippets: Snippet[] = [];
  switch (ctx.client.kind) {
    case "hived":
    case "steemd": {
      const seeds = configValue(ctx, "p2p-seed-node");
      const endpoint = configValue(ctx, "p2p-endpoint");
      arithmetic.push(
        `p2p-endpoint ${endpoint ?? "not reported"}; p2p-seed-node ${seeds ? `set (${seeds})` : "not reported (built-in seed list)"}`,
      );
      snippets.push(
        hivedConfigSnippet("hived config: accept inbound peers on the P2P port", [
          {
            key: "p2p-endpoint",
            value: "0.0.0.0:2001",
            comment: "listen for peers on all interfaces (open TCP 2001 in the firewall)",
          },
        ]),
        {
          kind: "shell",
          title: "Is the P2P port listening and which peers are connected",
          content: "ss -Hltn 'sport = :2001'\nss -Htn state established '( sport = :2001 or dport = :2001 )' | wc -l\n",
          applyCommand: "run on the node host (read-only)",
        },
      );
      return { snippets, arithmetic, src: ["hivedP2p"] };
    }
    case "nethermind": {
      const configured = configNumber(
        ctx,
        NETHERMIND_DEFAULT_PEERS,
        "Network.MaxActivePeers",
        "--Network.MaxActivePeers",
      );
      const target = Math.max(NETHERMIND_DEFAULT_PEERS, configured);
      arithmetic.push(
        `Network.MaxActivePeers ${configured} (default ${NETHERMIND_DEFAULT_PEERS}); median peers ${fmt(medianPeers)} → the cap is not what limits peering`,
      );
      snippets.push(
        nethermindFlags("Nethermind: peer discovery", [
          ...(configured < NETHERMIND_DEFAULT_PEERS
            ? [
                {
                  flag: "--Network.MaxActivePeers",
                  value: String(target),
                  comment: `back to the default (was ${configured})`,
                },
              ]
            : []),
          {
            flag: "--Network.MaxOutgoingConnectPerSec",
            value: "50",
            comment: "default 20; the guide calls 50 a reasonable higher value",
          },
        ]),
      );
      return { snippets, arithmetic, src: ["nethermindPerf", "nethermindConfig"] };
    }
    case "geth": {
      const configured = configNumber(ctx, GETH_DEFAULT_PEERS, "--maxpeers", "maxpeers");
      arithmetic.push(`--maxpeers ${configured} (default ${GETH_DEFAULT_PEERS}); median peers ${fmt(medianPeers)}`);
      snippets.push(
        gethFlags("Geth: peer limit", [
          {
            flag: "--maxpeers",
            value: String(Math.max(GETH_DEFAULT_PEERS, configured)),
            comment:
              configured < GETH_DEFAULT_PEERS
                ? `was ${configured}`
                : "the default; the limit is not what keeps peers low: check that TCP+UDP 30303 are reachable",
          },
        ]),
      );
      snippets.push({
        kind: "shell",
        title: "Is the P2P port reachable",
        content: "ss -Hlntu 'sport = :30303'\n",
        applyCommand: "run on the node host (read-only)",
      });
      return { snippets, arithmetic, src: ["gethFlags"] };
    }
    case "substrate": {
      const configured = configNumber(ctx, SUBSTRATE_DEFAULT_OUT_PEERS, "--out-peers");
      const target = Math.max(configured, SUBSTRATE_DEFAULT_OUT_PEERS) * 2;
      arithmetic.push(`--out-peers ${configured} (default ${SUBSTRATE_DEFAULT_OUT_PEERS}) × 2 = ${target}`);
      snippets.push(
        substrateFlags("Substrate: more outgoing peers", [
          { flag: "--out-peers", value: String(target), comment: `was ${configured}` },
        ]),
      );
      return { snippets, arithmetic, src: ["substrateNetworkParams"] };
    }
    default:
      return { snippets, arithmetic, src: [] };
  }
}

/**
 * Peers as reported (Ethereum net_peerCount, Substrate system_health). hived/steemd report none:
 * then established connections to the P2P port (p2p-endpoint, default 2001) from the per-destination
 * outbound rows when given, else "unknown" (the rule then speaks on lag alone).
 */
function peerSeries(ctx: RuleContext): { points: Point[]; source: "reported" | "p2p-sockets" | "unknown" } {
  const reported = series(ctx, "peers");
  if (reported.length > 0 || (ctx.client.kind !== "hived" && ctx.client.kind !== "steemd"))
    return { points: reported, source: "reported" };
  const endpoint = configValue(ctx, "p2p-endpoint");
  const p2pPort = Number(endpoint?.split(":").pop() ?? 2001) || 2001;
  const rows = (ctx.input.window.outbound ?? []).filter((r) => r.port === p2pPort);
  if (rows.length === 0) return { points: [], source: "unknown" };
  const byTime = new Map<number, number>();
  for (const s of ctx.input.window.samples) byTime.set(s.time.getTime(), 0);
  for (const r of rows) if (r.established > 0) byTime.set(r.time.getTime(), (byTime.get(r.time.getTime()) ?? 0) + 1);
  return {
    points: [...byTime].sort((a, b) => a[0] - b[0]).map(([t, v]) => ({ time: new Date(t), value: v })),
    source: "p2p-sockets",
  };
}

const laggingFewPeers: Rule = {
  descriptor: {
    id: "lagging-few-peers",
    title: "Node behind the network with few peers",
    families: ["hive", "ethereum", "substrate"],
    clients: [],
    gate: "Median lag ≥ lagBlocks and median peers ≤ fewPeers over the window. Snippets per client: hived/steemd p2p-endpoint; Nethermind MaxActivePeers/MaxOutgoingConnectPerSec; Geth --maxpeers; Substrate --out-peers.",
    watches: ["lag_blocks (or head_age_ms / block interval)", "peers"],
    kind: "change",
    snippetKinds: ["hived-config", "nethermind-flags", "geth-flags", "substrate-flags", "shell"],
    verificationMetric: "lag_blocks",
    sources: sources("hivedP2p", "nethermindPerf", "gethFlags", "substrateNetworkParams"),
  },
  evaluate(ctx) {
    const lag = lagSeries(ctx);
    const peerInfo = peerSeries(ctx);
    const peers = peerInfo.points;
    if (!enoughSamples(ctx, lag)) return [];
    if (peerInfo.source !== "unknown" && !enoughSamples(ctx, peers)) return [];
    const medLag = percentile(valuesOf(lag), 50)!;
    const medPeers = peerInfo.source === "unknown" ? null : percentile(valuesOf(peers), 50)!;
    if (medLag < ctx.t.lagBlocks || (medPeers !== null && medPeers > ctx.t.fewPeers)) return [];
    const { snippets, arithmetic, src } = peerSnippets(ctx, medPeers ?? 0);
    const interval = ctx.input.node.blockIntervalMs;
    const severity =
      medPeers === null ? "high" : medPeers === 0 || medLag >= ctx.t.lagBlocks * 10 ? "critical" : "high";
    const peerText = medPeers === null ? "an unknown number of peers" : `${fmt(medPeers)} peers`;
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "change",
        title: `${fmt(medLag)} blocks behind with ${peerText}`,
        severity,
        impact: impactOf(severity, medLag, ctx.t.lagBlocks, ">="),
        summary:
          medPeers === null
            ? `The node stays ${fmt(medLag)} blocks behind the network (median). hived's API does not report its peer count, so check peering first (P2P port listening and reachable, seed nodes), then disk and CPU.`
            : `The node stays ${fmt(medLag)} blocks behind the network (median) while it has only ${peerText} (median${peerInfo.source === "p2p-sockets" ? ", counted from established P2P connections" : ""}). With so few peers it cannot fetch blocks fast enough; fix peering first (P2P port reachable, peer limits, seed/boot nodes), then look at disk and CPU.`,
        evidence: [
          evidence(ctx, {
            metric: "lag_blocks",
            label: "Blocks behind the network",
            observed: medLag,
            threshold: ctx.t.lagBlocks,
            comparison: ">=",
            unit: "blocks (median)",
            points: lag,
          }),
          ...(medPeers === null
            ? []
            : [
                evidence(ctx, {
                  metric: "peers",
                  label: peerInfo.source === "p2p-sockets" ? "Established P2P connections" : "Peers",
                  observed: medPeers,
                  threshold: ctx.t.fewPeers,
                  comparison: "<=",
                  unit: "peers (median)",
                  points: peers,
                }),
              ]),
        ],
        arithmetic: [
          `Median lag ${fmt(medLag)} blocks${interval ? ` × ${interval / 1000} s = ${fmt((medLag * interval) / 1000)} s behind` : ""} (threshold ${ctx.t.lagBlocks})`,
          medPeers === null
            ? "Peers: not reported by this client's API (see the shell snippet)"
            : `Median peers ${fmt(medPeers)} ≤ ${ctx.t.fewPeers}`,
          ...arithmetic,
        ],
        snippets,
        caveats: [
          "A firewall or NAT that blocks inbound P2P connections keeps peer counts low no matter the limits.",
          "If peers are plentiful but the node still lags, the cause is disk or CPU, not peering.",
          ...(ctx.client.kind === "hived" || ctx.client.kind === "steemd"
            ? [
                "p2p-seed-node lines you set replace hived's built-in seed list; remove them unless you need specific seeds.",
              ]
            : []),
          ...(ctx.client.kind === "nethermind"
            ? [
                "The old tip \"MaxActivePeers 20 after sync\" was removed from Nethermind's guide; don't lower peers on a lagging node.",
                "Nethermind's guide on MaxOutgoingConnectPerSec 50: some ISPs may throttle and some Wi-Fi routers may hang with many new connections per second.",
              ]
            : []),
        ],
        expectedEffect: "Peers rise and the lag returns to 0–2 blocks.",
        verification: describeVerification(ctx, {
          metric: "lag_blocks",
          direction: "decrease",
          minimumWindowMinutes: 30,
          how: (w) => `Compare lag ${w} before and after the restart (ignore the first minutes of catch-up).`,
        }),
        sources: sources(...src),
      }),
    ];
  },
};

export const SYNC_RULES: readonly Rule[] = [laggingFewPeers];
