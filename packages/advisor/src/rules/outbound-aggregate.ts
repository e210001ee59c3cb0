import type { RuleContext } from "../engine.js";
import { fmt, maxOf, pct, valuesOf } from "../metrics.js";
import { nginxUpstreamKeepalive } from "../snippets/nginx.js";
import { sysctlSnippet } from "../snippets/sysctl.js";
import { sources } from "../sources.js";
import type { RuleDescriptor, Snippet, SuggestionDraft } from "../types.js";
import { describeVerification, draft, enoughSamples, evidence, impactOf, series } from "./common.js";

/**
 * Fallbacks of the two outbound rules when only node_samples are available (no per-destination
 * rows in `window.outbound`): they read the aggregate series ephemeralInUse / ephemeralRange and
 * timeWaitOut. Because Linux ≥ 3.2 shares a local port across different destinations, the total
 * is an upper bound of any one destination's use: the drafts say so and never suggest
 * tcp_tw_reuse (loopback or not is unknown).
 */

const TW_SECONDS = 60;

const WHERE_SHELL: Snippet = {
  kind: "shell",
  title: "Which destinations hold the outbound sockets",
  content:
    "ss -Htan state time-wait | awk '{print $4}' | sort | uniq -c | sort -rn | head\nss -Htan state established | awk '{print $4}' | sort | uniq -c | sort -rn | head\n",
  applyCommand: "run on the node host (read-only)",
};

function nodeKeepalive(ctx: RuleContext): Snippet[] {
  const port = ctx.input.node.rpcPort;
  if (!port || ctx.input.settings?.nginx?.present === false) return [];
  const listenPort = ctx.input.node.publicPorts.find((p) => p !== port) ?? 80;
  return [nginxUpstreamKeepalive({ name: "node_rpc", servers: [`127.0.0.1:${port}`], listenPort, keepalive: 32 })];
}

export function aggregateExhaustion(
  ctx: RuleContext,
  d: RuleDescriptor,
  range: { low: number; high: number; size: number },
): SuggestionDraft[] {
  const pts = series(ctx, "ephemeral_ratio");
  if (!enoughSamples(ctx, pts)) return [];
  const peak = maxOf(valuesOf(pts))!;
  if (peak < ctx.t.outboundWarnRatio) return [];
  const sockets = Math.round(peak * range.size);
  const severity = peak >= ctx.t.outboundCritRatio ? "high" : "medium";
  const target = 0.4;
  const needed = Math.ceil(sockets / target);
  const snippets: Snippet[] = [...nodeKeepalive(ctx), WHERE_SHELL];
  const arithmetic = [
    `Ephemeral port range ${range.low}–${range.high} = ${fmt(range.size)} ports`,
    `Peak outbound sockets (all destinations) ${fmt(sockets)} / ${fmt(range.size)} = ${pct(peak)}`,
  ];
  if (needed > range.size) {
    const high = Math.max(64999, range.high);
    let low = Math.max(1024, high - needed + 1);
    if (low % 2 === high % 2) low = low > 1024 ? low - 1 : low + 1;
    arithmetic.push(
      `Wider range so the peak uses ≤ ${pct(target)}: ${fmt(sockets)} / ${target} = ${fmt(needed)} → ${low}–${high}`,
    );
    snippets.push(
      sysctlSnippet("ephemeral-ports", "sysctl: wider ephemeral port range", [
        { key: "net.ipv4.ip_local_port_range", value: `${low} ${high}`, comment: `was ${range.low} ${range.high}` },
      ]),
    );
  }
  return [
    draft({
      ruleId: d.id,
      fingerprint: `${d.id}:all-destinations`,
      kind: "change",
      title: `Outbound sockets at ${pct(peak)} of the ephemeral range`,
      severity,
      impact: impactOf(severity, peak, ctx.t.outboundWarnRatio, ">="),
      summary: `This host holds up to ${fmt(sockets)} outbound sockets, ${pct(peak)} of its ${fmt(range.size)} ephemeral ports. If most go to one destination (ip:port), new connections to it will fail with EADDRNOTAVAIL. Find the destination (snippet), then reuse connections to it.`,
      evidence: [
        evidence(ctx, {
          metric: "ephemeral_ratio",
          label: "Outbound sockets / ephemeral range (all destinations)",
          observed: Number(peak.toFixed(4)),
          threshold: ctx.t.outboundWarnRatio,
          comparison: ">=",
          unit: "ratio",
          points: pts,
        }),
      ],
      arithmetic,
      snippets,
      caveats: [
        "Only the total over all destinations is stored for this node; Linux shares local ports across different destinations, so the real per-destination use may be lower.",
        "tcp_tw_reuse=1 helps only toward remote destinations (2, the default, covers loopback): decide after finding the destination.",
        "Widening the range can collide with services on high ports: reserve them with ip_local_reserved_ports.",
      ],
      expectedEffect: "Outbound sockets fall to the number of concurrently busy connections.",
      verification: describeVerification(ctx, {
        metric: "ephemeral_ratio",
        direction: "decrease",
        minimumWindowMinutes: 30,
        how: (w) => `Compare the outbound sockets / range ratio ${w} before and after.`,
      }),
      sources: sources("bernat", "ipSysctl", "nginxUpstream"),
    }),
  ];
}

export function aggregateKeepalive(ctx: RuleContext, d: RuleDescriptor): SuggestionDraft[] {
  const out = series(ctx, "tw_outbound");
  const inb = series(ctx, "tw_inbound");
  if (!enoughSamples(ctx, out)) return [];
  const peak = maxOf(valuesOf(out))!;
  const peakIn = maxOf(valuesOf(inb)) ?? 0;
  const ratio = maxOf(valuesOf(series(ctx, "ephemeral_ratio"))) ?? 0;
  if (peak < ctx.t.timeWaitMin || peak < peakIn || ratio >= ctx.t.outboundWarnRatio) return [];
  const severity = "medium";
  const port = ctx.input.node.rpcPort;
  return [
    draft({
      ruleId: d.id,
      fingerprint: `${d.id}:aggregate`,
      kind: "change",
      title: `${fmt(peak)} outbound TIME_WAIT sockets: connections are not reused`,
      severity,
      impact: impactOf(severity, peak, ctx.t.timeWaitMin, ">="),
      summary: `This host closes about ${fmt(peak / TW_SECONDS, 1)} outgoing connections per second itself (${fmt(peak)} in TIME_WAIT at the peak). The usual cause on an RPC host is nginx proxying to the node without upstream keepalive${port ? ` (127.0.0.1:${port})` : ""}; check the destinations first.`,
      evidence: [
        evidence(ctx, {
          metric: "tw_outbound",
          label: "Outbound TIME_WAIT",
          observed: peak,
          threshold: ctx.t.timeWaitMin,
          comparison: ">=",
          unit: "sockets",
          points: out,
        }),
      ],
      arithmetic: [
        `${fmt(peak)} TIME_WAIT / ${TW_SECONDS} s ≈ ${fmt(peak / TW_SECONDS, 1)} connections/s closed by this host`,
        `Inbound TIME_WAIT at most ${fmt(peakIn)}`,
      ],
      snippets: [WHERE_SHELL, ...nodeKeepalive(ctx)],
      caveats: [
        "The per-destination breakdown is not stored for this node: the nginx snippet assumes the churn is nginx → node; confirm with the ss output first.",
        "tcp_fin_timeout does not shorten TIME_WAIT; tcp_tw_reuse=2 (default) already covers loopback.",
      ],
      expectedEffect: "Outbound TIME_WAIT drops to near zero once connections are reused.",
      verification: describeVerification(ctx, {
        metric: "tw_outbound",
        direction: "decrease",
        minimumWindowMinutes: 15,
        how: (w) => `Compare outbound TIME_WAIT ${w} before and after.`,
      }),
      sources: sources("nginxUpstream", "bernat"),
    }),
  ];
}
