import type { Rule, RuleContext } from "../engine.js";
import { fmt, maxOf, pct, valuesOf, type Point } from "../metrics.js";
import { nginxUpstreamKeepalive } from "../snippets/nginx.js";
import { sysctlSnippet, type SysctlLine } from "../snippets/sysctl.js";
import { sources } from "../sources.js";
import type { AdvisorOutboundDestination, Snippet, SuggestionDraft } from "../types.js";
import { describeVerification, draft, enoughSamples, evidence, impactOf, isLoopback, series } from "./common.js";
import { aggregateExhaustion, aggregateKeepalive } from "./outbound-aggregate.js";

const DEFAULT_RANGE = { low: 32768, high: 60999 };
/** Ports RPC nodes commonly listen on (tuning KB A1.2) kept out of a widened ephemeral range. */
const KNOWN_NODE_PORTS = [2001, 8090, 8091, 8545, 8546, 9944, 30303, 30333];
const TW_SECONDS = 60; // TCP_TIMEWAIT_LEN, include/net/tcp.h
const NGINX_DEFAULT_KEEPALIVE = [1, 29, 7] as const;

function portRange(ctx: RuleContext): { low: number; high: number; size: number; known: boolean } {
  const r = ctx.input.settings?.ipLocalPortRange;
  if (r) return { ...r, size: r.high - r.low + 1, known: true };
  const size = maxOf(ctx.input.window.samples.map((s) => s.ephemeralRange ?? 0).filter((v) => v > 0));
  if (size) return { low: 61000 - size, high: 60999, size, known: false };
  return { ...DEFAULT_RANGE, size: DEFAULT_RANGE.high - DEFAULT_RANGE.low + 1, known: false };
}

interface Destination {
  key: string;
  ip: string;
  port: number;
  points: Point[];
  twPoints: Point[];
  peak: AdvisorOutboundDestination;
}

function destinations(ctx: RuleContext): Destination[] {
  const map = new Map<string, Destination>();
  for (const row of ctx.input.window.outbound ?? []) {
    const key = row.ip.includes(":") ? `[${row.ip}]:${row.port}` : `${row.ip}:${row.port}`;
    let d = map.get(key);
    if (!d) map.set(key, (d = { key, ip: row.ip, port: row.port, points: [], twPoints: [], peak: row }));
    d.points.push({ time: row.time, value: row.sockets });
    d.twPoints.push({ time: row.time, value: row.timeWait });
    if (row.sockets > d.peak.sockets) d.peak = row;
  }
  return [...map.values()].sort((a, b) => b.peak.sockets - a.peak.sockets);
}

function nginxNeedsKeepalive(ctx: RuleContext): boolean {
  const n = ctx.input.settings?.nginx;
  if (n?.upstreamKeepalive && n.upstreamKeepalive > 0) return false;
  const m = n?.version ? /(\d+)\.(\d+)\.(\d+)/.exec(n.version) : null;
  if (!m) return true;
  const v = [Number(m[1]), Number(m[2]), Number(m[3])];
  for (let i = 0; i < 3; i++) if (v[i] !== NGINX_DEFAULT_KEEPALIVE[i]) return v[i]! < NGINX_DEFAULT_KEEPALIVE[i]!;
  return false;
}

function keepaliveSnippet(ctx: RuleContext, d: { ip: string; port: number }): Snippet {
  const listenPort = ctx.input.node.publicPorts.find((p) => p !== d.port) ?? 80;
  const server = d.ip.includes(":") ? `[${d.ip}]:${d.port}` : `${d.ip}:${d.port}`;
  return nginxUpstreamKeepalive({ name: "node_rpc", servers: [server], listenPort, keepalive: 32 });
}

/** Widen the range so the observed peak would use at most 40 %, reserving service ports inside it. */
function widenedRange(ctx: RuleContext, peak: number, current: { low: number; high: number; size: number }) {
  const target = 0.4;
  const needed = Math.ceil(peak / target);
  if (needed <= current.size) return null;
  const high = Math.max(64999, current.high);
  let low = Math.max(1024, high - needed + 1);
  if (low % 2 === high % 2) low = low > 1024 ? low - 1 : low + 1;
  const listening = ctx.input.settings?.listeningPorts ?? [];
  const reserve = [
    ...new Set([...KNOWN_NODE_PORTS, ...listening, ...ctx.input.node.publicPorts, ctx.input.node.rpcPort ?? 0]),
  ]
    .filter((p) => p >= low && p <= high)
    .sort((a, b) => a - b);
  return { low, high, size: high - low + 1, needed, target, reserve };
}

const outboundExhaustion: Rule = {
  descriptor: {
    id: "outbound-port-exhaustion",
    title: "Outbound ephemeral ports running out toward one destination",
    families: ["any"],
    clients: [],
    gate: "Any node. Per destination (ip:port) from the agent's outbound table; tw_reuse=1 only for non-loopback destinations (2, the default since 2018, already covers loopback).",
    watches: ["outbound[].sockets (per destination)", "ip_local_port_range", "tcp_tw_reuse"],
    kind: "change",
    snippetKinds: ["nginx", "sysctl", "shell"],
    verificationMetric: "ephemeral_ratio",
    sources: sources("bernat", "ipSysctl", "nginxUpstream"),
  },
  evaluate(ctx) {
    const range = portRange(ctx);
    if (!ctx.input.window.outbound?.length) return aggregateExhaustion(ctx, this.descriptor, range);
    const out: SuggestionDraft[] = [];
    for (const d of destinations(ctx)) {
      if (!enoughSamples(ctx, d.points)) continue;
      const peak = d.peak.sockets;
      const ratio = peak / range.size;
      if (ratio < ctx.t.outboundWarnRatio) continue;
      const critical = ratio >= ctx.t.outboundCritRatio;
      const severity = critical ? "critical" : "high";
      const loop = isLoopback(d.ip);
      const reuse = ctx.input.settings?.tcpTwReuse ?? null;
      const arithmetic = [
        `Ephemeral port range ${range.low}–${range.high} = ${fmt(range.size)} ports${range.known ? "" : " (assumed: the agent did not report the range)"}`,
        `Peak sockets toward ${d.key}: ${fmt(peak)} (ESTABLISHED ${fmt(d.peak.established)}, TIME_WAIT ${fmt(d.peak.timeWait)}) → ${fmt(peak)} / ${fmt(range.size)} = ${pct(ratio)}`,
        `TIME_WAIT lasts a fixed ${TW_SECONDS} s → ${fmt(d.peak.timeWait)} / ${TW_SECONDS} s ≈ ${fmt(d.peak.timeWait / TW_SECONDS)} connections/s closed by this host; the range is used up at ${fmt(range.size)} / ${TW_SECONDS} ≈ ${fmt(range.size / TW_SECONDS)}/s`,
      ];
      const snippets: Snippet[] = [keepaliveSnippet(ctx, d)];
      const lines: SysctlLine[] = [];
      const w = widenedRange(ctx, peak, range);
      if (w) {
        arithmetic.push(
          `Wider range so the peak uses ≤ ${pct(w.target)}: ${fmt(peak)} / ${w.target} = ${fmt(w.needed)} ports → ${w.low}–${w.high} (${fmt(w.size)} ports, low and high of different parity)`,
        );
        lines.push({
          key: "net.ipv4.ip_local_port_range",
          value: `${w.low} ${w.high}`,
          comment: `was ${range.low} ${range.high}; peak ${fmt(peak)} sockets to ${d.key}`,
        });
        if (w.reserve.length > 0) {
          arithmetic.push(`Service ports inside the new range kept out of it: ${w.reserve.join(", ")}`);
          lines.push({
            key: "net.ipv4.ip_local_reserved_ports",
            value: w.reserve.join(","),
            comment: "service ports inside the range (this replaces the whole list: merge yours)",
          });
        }
      }
      if (!loop && reuse !== 1) {
        lines.push({
          key: "net.ipv4.tcp_tw_reuse",
          value: 1,
          comment: `reuse TIME_WAIT for outgoing connections to remote ${d.key} (was ${reuse ?? "unknown"})`,
        });
      }
      if (loop && reuse === 0) {
        lines.push({
          key: "net.ipv4.tcp_tw_reuse",
          value: 2,
          comment: "back to the kernel default: reuse for loopback only",
        });
      }
      if (lines.length > 0)
        snippets.push(sysctlSnippet("ephemeral-ports", "sysctl: ephemeral port range and TIME_WAIT reuse", lines));
      out.push(
        draft({
          ruleId: this.descriptor.id,
          fingerprint: `${this.descriptor.id}:${d.key}`,
          kind: "change",
          title: `Outbound ports toward ${d.key} at ${pct(ratio)} of the ephemeral range`,
          severity,
          impact: impactOf(severity, ratio, ctx.t.outboundWarnRatio, ">="),
          summary: `This host holds ${fmt(peak)} sockets to ${d.key}, ${pct(ratio)} of its ${fmt(range.size)} ephemeral ports. New connections to that destination fail with EADDRNOTAVAIL ("Cannot assign requested address") when the range is used up. Reusing connections is the real fix; a wider range and ${loop ? "the loopback TIME_WAIT reuse the kernel already does" : "tcp_tw_reuse=1"} buy headroom.`,
          evidence: [
            evidence(ctx, {
              metric: "ephemeral_ratio",
              label: `Sockets to ${d.key} / ephemeral range`,
              observed: Number(ratio.toFixed(4)),
              threshold: ctx.t.outboundWarnRatio,
              comparison: ">=",
              unit: "ratio",
              points: d.points.map((p) => ({ time: p.time, value: p.value / range.size })),
            }),
          ],
          arithmetic,
          snippets,
          caveats: [
            "tcp_tw_reuse only affects outgoing connections and needs TCP timestamps (net.ipv4.tcp_timestamps=1, the default) on both ends; it does nothing for inbound TIME_WAIT.",
            'The kernel documentation says tcp_tw_reuse "should not be changed without advice/request of technical experts".',
            ...(loop
              ? [
                  "The destination is loopback: tcp_tw_reuse=2 (the default) already reuses TIME_WAIT there, so connection reuse (upstream keepalive) is what helps.",
                ]
              : []),
            "Widening the range can collide with services listening on high ports: ip_local_reserved_ports lists them; writing it replaces the whole list.",
            "nginx 1.29.7 and later keep 32 idle upstream connections by default; older versions need keepalive plus proxy_http_version 1.1 and an empty Connection header.",
          ],
          expectedEffect: `Sockets toward ${d.key} fall to the number of concurrently busy connections; EADDRNOTAVAIL errors stop.`,
          verification: describeVerification(ctx, {
            metric: "ephemeral_ratio",
            direction: "decrease",
            minimumWindowMinutes: 30,
            how: (w) => `Compare the outbound sockets / range ratio ${w} before and after the change.`,
          }),
          sources: sources("bernat", "ipSysctl", "nginxUpstream"),
          appliesWhen: w ? { setting: "ipLocalPortRange", expected: `>=${w.size}` } : undefined,
        }),
      );
    }
    return out;
  },
};

const upstreamKeepalive: Rule = {
  descriptor: {
    id: "nginx-upstream-keepalive",
    title: "Connection churn to a local upstream: reuse connections",
    families: ["any"],
    clients: [],
    gate: "TIME_WAIT toward one loopback destination ≥ timeWaitMin while below the exhaustion threshold; skipped when nginx ≥ 1.29.7 or upstream keepalive is known to be set.",
    watches: ["outbound[].timeWait (loopback destinations)", "nginx version / upstream keepalive when known"],
    kind: "change",
    snippetKinds: ["nginx", "shell"],
    verificationMetric: "tw_outbound",
    sources: sources("nginxUpstream", "bernat"),
  },
  evaluate(ctx) {
    if (!nginxNeedsKeepalive(ctx)) return [];
    if (!ctx.input.window.outbound?.length) return aggregateKeepalive(ctx, this.descriptor);
    const range = portRange(ctx);
    const out: SuggestionDraft[] = [];
    for (const d of destinations(ctx)) {
      if (!isLoopback(d.ip) || !enoughSamples(ctx, d.twPoints)) continue;
      const peakTw = maxOf(valuesOf(d.twPoints)) ?? 0;
      if (peakTw < ctx.t.timeWaitMin || d.peak.sockets / range.size >= ctx.t.outboundWarnRatio) continue;
      const isNode = ctx.input.node.rpcPort === d.port;
      const nginxKnownAbsent = ctx.input.settings?.nginx?.present === false;
      const severity = "medium";
      out.push(
        draft({
          ruleId: this.descriptor.id,
          fingerprint: `${this.descriptor.id}:${d.key}`,
          kind: nginxKnownAbsent ? "explanation" : "change",
          title: `${fmt(peakTw)} TIME_WAIT sockets toward ${isNode ? "the node's RPC port " : ""}${d.key}: connections are not reused`,
          severity,
          impact: impactOf(severity, peakTw, ctx.t.timeWaitMin, ">="),
          summary: `Something on this host opens and closes a new connection to ${d.key} for (nearly) every request: ${fmt(peakTw)} sockets sat in TIME_WAIT at the peak. ${nginxKnownAbsent ? "Use a pooled HTTP client (keep-alive) in the calling application." : "If nginx proxies to it, keep upstream connections alive."}`,
          evidence: [
            evidence(ctx, {
              metric: "tw_outbound",
              label: `TIME_WAIT toward ${d.key}`,
              observed: peakTw,
              threshold: ctx.t.timeWaitMin,
              comparison: ">=",
              unit: "sockets",
              points: d.twPoints,
            }),
          ],
          arithmetic: [
            `Peak TIME_WAIT toward ${d.key}: ${fmt(peakTw)}; TIME_WAIT lasts ${TW_SECONDS} s → about ${fmt(peakTw / TW_SECONDS, 1)} new connections/s`,
            `Ephemeral range ${fmt(range.size)} ports → ${pct(d.peak.sockets / range.size, 1)} used toward this destination (exhaustion rule starts at ${pct(ctx.t.outboundWarnRatio)})`,
            "keepalive 32: idle connections kept per worker process; it does not limit the total number of upstream connections",
          ],
          snippets: nginxKnownAbsent ? [] : [keepaliveSnippet(ctx, d)],
          caveats: [
            "tcp_tw_reuse is not the fix here: the default (2) already reuses TIME_WAIT on loopback.",
            "nginx ≥ 1.29.7 already keeps 32 idle upstream connections; older versions need the three lines shown.",
            "Tuning tcp_fin_timeout does not shorten TIME_WAIT (it only applies to orphaned FIN_WAIT2 sockets).",
          ],
          expectedEffect: `TIME_WAIT toward ${d.key} drops from ~${fmt(peakTw)} to near zero and per-request latency loses the TCP handshake.`,
          verification: describeVerification(ctx, {
            metric: "tw_outbound",
            direction: "decrease",
            minimumWindowMinutes: 15,
            how: (w) => `Compare outbound TIME_WAIT ${w} before and after reloading nginx.`,
          }),
          sources: sources("nginxUpstream", "bernat", "ipSysctl"),
        }),
      );
    }
    return out;
  },
};

const inboundTimeWait: Rule = {
  descriptor: {
    id: "inbound-time-wait",
    title: "Many TIME_WAIT sockets, almost all inbound: harmless",
    families: ["any"],
    clients: [],
    gate: "TIME_WAIT ≥ timeWaitMin and ≥ 90 % of it on listening ports.",
    watches: ["time_wait_in", "time_wait_out"],
    kind: "explanation",
    snippetKinds: [],
    verificationMetric: "tw_inbound",
    sources: sources("bernat", "ipSysctl"),
  },
  evaluate(ctx) {
    const inPts = series(ctx, "tw_inbound");
    const outPts = series(ctx, "tw_outbound");
    if (!enoughSamples(ctx, inPts)) return [];
    let peakIn = 0;
    let outAtPeak = 0;
    const outByTime = new Map(outPts.map((p) => [p.time.getTime(), p.value]));
    for (const p of inPts) {
      if (p.value > peakIn) {
        peakIn = p.value;
        outAtPeak = outByTime.get(p.time.getTime()) ?? 0;
      }
    }
    const total = peakIn + outAtPeak;
    const share = total > 0 ? peakIn / total : 0;
    if (total < ctx.t.timeWaitMin || share < ctx.t.inboundTwShare) return [];
    const kib = (peakIn * 168) / 1024;
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "explanation",
        title: `${fmt(peakIn)} inbound TIME_WAIT sockets are harmless`,
        severity: "info",
        impact: impactOf("info", total, ctx.t.timeWaitMin, ">="),
        summary: `Clients close their connections first, so TIME_WAIT sits on this server's listening ports (${pct(share)} of all TIME_WAIT). It uses no ephemeral ports and little memory; nothing needs to change. Old advice (tcp_tw_recycle, tcp_fin_timeout, lowering tcp_max_tw_buckets) is wrong or harmful here.`,
        evidence: [
          evidence(ctx, {
            metric: "tw_inbound",
            label: "Inbound TIME_WAIT",
            observed: peakIn,
            threshold: ctx.t.timeWaitMin,
            comparison: ">=",
            unit: "sockets",
            points: inPts,
          }),
          evidence(ctx, {
            metric: "tw_share_inbound",
            label: "Inbound share of TIME_WAIT at the peak",
            observed: Number(share.toFixed(4)),
            threshold: ctx.t.inboundTwShare,
            comparison: ">=",
            unit: "ratio",
          }),
        ],
        arithmetic: [
          `Inbound ${fmt(peakIn)} / (inbound ${fmt(peakIn)} + outbound ${fmt(outAtPeak)}) = ${pct(share, 1)}`,
          `Memory: ${fmt(peakIn)} × ~168 B per timewait socket ≈ ${fmt(kib / 1024, 1)} MiB`,
          `Each lasts a fixed ${TW_SECONDS} s: ≈ ${fmt(peakIn / TW_SECONDS, 1)} client connections closed per second`,
        ],
        caveats: [
          "TIME_WAIT length is the kernel constant TCP_TIMEWAIT_LEN (60 s), not a sysctl; tcp_fin_timeout does not change it.",
          "tcp_tw_reuse only applies to outgoing connections; tcp_tw_recycle was removed in Linux 4.12.",
          "If clients reconnect for every request, HTTP keep-alive on their side lowers the count (and their latency).",
        ],
        expectedEffect: "None needed: the count follows the connection rate of your clients.",
        verification: describeVerification(ctx, {
          metric: "tw_inbound",
          direction: "decrease",
          minimumWindowMinutes: 15,
          how: "Nothing to verify; shown for reassurance.",
        }),
        sources: sources("bernat", "ipSysctl", "tcp7"),
      }),
    ];
  },
};

export const TIME_WAIT_RULES: readonly Rule[] = [inboundTimeWait, outboundExhaustion, upstreamKeepalive];
