import type { Rule, RuleContext } from "../engine.js";
import { fmt, percentile, type Point } from "../metrics.js";
import { iptablesConnlimit, nftablesConnlimit } from "../snippets/firewall.js";
import { nginxPerIpLimits } from "../snippets/nginx.js";
import { sources } from "../sources.js";
import type { Snippet, SuggestionDraft } from "../types.js";
import { describeVerification, draft, evidence, impactOf, isLoopback } from "./common.js";

/** Floor of the per-IP limit: browsers and SDKs open several parallel connections [proposal]. */
const MIN_PER_IP_LIMIT = 10;
/** limit_req rate = per-IP connections × this (assumes ≥ 200 ms per request per connection) [proposal]. */
const REQUESTS_PER_CONNECTION_PER_S = 5;

interface Offender {
  peak: number;
  peakTotal: number;
  peakTime: number;
  samples: number;
}

/** Ports the per-IP limits would apply to: the public ports, else the RPC port, else 80/443. */
function limitedPorts(ctx: RuleContext): number[] {
  const known = ctx.input.node.publicPorts.length
    ? ctx.input.node.publicPorts
    : ctx.input.node.rpcPort
      ? [ctx.input.node.rpcPort]
      : [80, 443];
  return known.slice(0, 15);
}

const portList = (ports: readonly number[]) => `port${ports.length > 1 ? "s" : ""} ${ports.join(", ")}`;

/**
 * The busiest address is loopback (127.0.0.0/8, ::1): a process on this host, typically a reverse
 * proxy in front of the node, counted because the agent watches the node's own port too. A per-IP
 * limit there would throttle the proxy and every client behind it, so this is an explanation
 * without limit snippets: the limits belong on the proxy, which sees the client addresses.
 */
function localProxyDraft(
  ctx: RuleContext,
  ruleId: string,
  o: { ip: string; top: Offender; bar: number; ports: number[]; points: Point[]; others: string },
): SuggestionDraft {
  const { ip, top, bar, ports } = o;
  const severity = "info";
  const dports = ports.map((p) => `dport = :${p}`).join(" or ");
  const snippet: Snippet = {
    kind: "shell",
    title: "Which local process holds these connections",
    content: `ss -Htnp state established '( ${dports} )' | grep -F '${ip.includes(":") ? `[${ip}]` : ip}:'\n`,
    applyCommand: "run on the node host as root (read-only; -p needs root to name other users' processes)",
  };
  return draft({
    ruleId,
    fingerprint: `${ruleId}:${[...ports].sort((a, b) => a - b).join(",")}`,
    kind: "explanation",
    title: `${ip} (loopback) held ${fmt(top.peak)} connections to ${portList(ports)}${o.others}: a local process, not a client`,
    severity,
    impact: impactOf(severity, top.peak, bar, ">"),
    summary: `Most connections come from ${ip}, a loopback address: a process on this host, most likely a local reverse proxy (nginx or similar) in front of the node. Per-IP limits on the node's port would throttle the proxy and with it every client behind it, so RPC Pulse proposes none here. Per-IP limits belong on the proxy, which sees the real client addresses; if the proxy itself sits behind a CDN or load balancer, check its X-Forwarded-For / real_ip configuration (ngx_http_realip_module) first, or every client shares the balancer's address.`,
    evidence: [
      evidence(ctx, {
        metric: "top_ip_connections",
        label: `Connections from ${ip}`,
        observed: top.peak,
        threshold: Math.ceil(bar),
        comparison: ">",
        unit: "connections",
        points: o.points,
      }),
    ],
    arithmetic: [
      `Flood bar at the peak: max(${ctx.t.floodMinConnections}, ${ctx.t.floodShare * 100} % × ${fmt(top.peakTotal)} listed connections) = ${fmt(bar, 1)}; ${ip} had ${fmt(top.peak)}`,
      `${ip} is a loopback address (127.0.0.0/8 or ::1): the connections start on this host, not at a remote client`,
    ],
    snippets: [snippet],
    caveats: [
      "Connections from the proxy to the node are normal; with upstream keepalive a proxy holds several idle ones on purpose.",
      "If the agent is given only the public ports (--ports 80,443), the proxy's own connections to the node are not counted and the real client addresses are.",
    ],
    expectedEffect:
      "Nothing changes on the node: once the limits are on the proxy, clients above them are refused there.",
    verification: describeVerification(ctx, {
      metric: "top_ip_connections",
      direction: "decrease",
      minimumWindowMinutes: 30,
      how: "Nothing to apply on the node; limits on the proxy show in the proxy's own logs (429/503 responses).",
    }),
    sources: sources("nginxRealip", "nginxLimitConn", "nginxUpstream"),
  });
}

const flood: Rule = {
  descriptor: {
    id: "connection-flood",
    title: "One remote IP holds a large share of the connections",
    families: ["any"],
    clients: [],
    gate: "Some IP above max(floodMinConnections, floodShare × all listed connections) in a sample of node_remote_ips; the per-IP limit comes from the p99 of the other non-loopback IPs × headroom. Loopback sources (127.0.0.0/8, ::1: a local proxy) never get limits: an explanation when only they are above the bar.",
    watches: ["node_remote_ips (per-IP concurrency on the public ports)"],
    kind: "change",
    snippetKinds: ["nginx", "iptables", "nftables", "shell"],
    verificationMetric: "top_ip_connections",
    sources: sources("nginxLimitConn", "nginxLimitReq", "connlimit", "nftCount"),
  },
  evaluate(ctx) {
    const rows = ctx.input.window.remoteIps;
    if (rows.length === 0) return [];
    const totals = new Map<number, number>();
    for (const r of rows) totals.set(r.time.getTime(), (totals.get(r.time.getTime()) ?? 0) + r.connections);
    if (totals.size < ctx.t.minSamples) return [];
    const offenders = new Map<string, Offender>();
    for (const r of rows) {
      const total = totals.get(r.time.getTime())!;
      const bar = Math.max(ctx.t.floodMinConnections, ctx.t.floodShare * total);
      if (r.connections <= bar) continue;
      const o = offenders.get(r.ip) ?? { peak: 0, peakTotal: 0, peakTime: 0, samples: 0 };
      o.samples++;
      if (r.connections > o.peak) {
        o.peak = r.connections;
        o.peakTotal = total;
        o.peakTime = r.time.getTime();
      }
      offenders.set(r.ip, o);
    }
    if (offenders.size === 0) return [];
    const all = [...offenders.entries()].sort((a, b) => b[1].peak - a[1].peak);
    // Loopback sources are processes on this host (a local proxy): never the subject of per-IP limits.
    const ranked = all.filter(([ip]) => !isLoopback(ip));
    const local = all.filter(([ip]) => isLoopback(ip));
    const [topIp, top] = (ranked[0] ?? local[0])!;
    // Sockets a server leaks in CLOSE_WAIT still count per remote IP: that is the leak rule's
    // finding, not a flood (the peer already hung up).
    const atPeak = ctx.input.window.samples.find((s) => s.time.getTime() === top.peakTime);
    if ((atPeak?.tcpCloseWait ?? 0) >= 0.5 * top.peak) return [];
    const ports = limitedPorts(ctx);
    const topPoints: Point[] = rows.filter((r) => r.ip === topIp).map((r) => ({ time: r.time, value: r.connections }));
    const bar = Math.max(ctx.t.floodMinConnections, ctx.t.floodShare * top.peakTotal);
    const othersOf = (list: typeof all) =>
      list.length > 1
        ? ` (+${list.length - 1} more: ${list
            .slice(1, 4)
            .map(([ip]) => ip)
            .join(", ")})`
        : "";
    if (ranked.length === 0)
      return [
        localProxyDraft(ctx, this.descriptor.id, {
          ip: topIp,
          top,
          bar,
          ports,
          points: topPoints,
          others: othersOf(local),
        }),
      ];
    const legit = rows.filter((r) => !offenders.has(r.ip) && !isLoopback(r.ip)).map((r) => r.connections);
    const p99 = percentile(legit, 99) ?? 1;
    const limit = Math.max(MIN_PER_IP_LIMIT, Math.ceil(p99 * ctx.t.perIpHeadroom));
    const separates = limit < top.peak;
    const rate = limit * REQUESTS_PER_CONNECTION_PER_S;
    const burst = rate * 2;
    const snippets: Snippet[] = separates
      ? [
          nginxPerIpLimits({ ports, connLimit: limit, rate, burst, dryRun: true, zoneMb: 10 }),
          nginxPerIpLimits({ ports, connLimit: limit, rate, burst, dryRun: false, zoneMb: 10 }),
          iptablesConnlimit({ ports, above: limit, measureOnly: true }),
          iptablesConnlimit({ ports, above: limit, measureOnly: false }),
          nftablesConnlimit({ ports, above: limit, measureOnly: true }),
          nftablesConnlimit({ ports, above: limit, measureOnly: false }),
        ]
      : [];
    const severity = top.peak >= bar * 4 ? "high" : "medium";
    const others = othersOf(ranked);
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: `${this.descriptor.id}:${[...ports].sort((a, b) => a - b).join(",")}`,
        kind: separates ? "change" : "explanation",
        title: `${topIp} held ${fmt(top.peak)} connections to ${portList(ports)}${others}`,
        severity,
        impact: impactOf(severity, top.peak, bar, ">"),
        summary: separates
          ? `One client address held ${fmt(top.peak)} of ${fmt(top.peakTotal)} listed connections while the other addresses needed at most ${fmt(p99)} (p99). A per-IP limit of ${limit} leaves ordinary clients ${ctx.t.perIpHeadroom}× headroom and caps the flood. Start in dry-run, check who would be limited, then enforce.`
          : `One client address held ${fmt(top.peak)} connections, but ordinary clients also use many (p99 ${fmt(p99)}), so a per-IP limit would not separate them. Check whether ${topIp} is a proxy, load balancer or CDN before limiting anything.`,
        evidence: [
          evidence(ctx, {
            metric: "top_ip_connections",
            label: `Connections from ${topIp}`,
            observed: top.peak,
            threshold: Math.ceil(bar),
            comparison: ">",
            unit: "connections",
            points: topPoints,
          }),
          evidence(ctx, {
            metric: "legit_ip_p99",
            label: "p99 connections of the other IPs",
            observed: p99,
            threshold: limit,
            comparison: "<",
            unit: "connections",
          }),
        ],
        arithmetic: [
          `Flood bar at the peak: max(${ctx.t.floodMinConnections}, ${ctx.t.floodShare * 100} % × ${fmt(top.peakTotal)} listed connections) = ${fmt(bar, 1)}; ${topIp} had ${fmt(top.peak)} (${top.samples} sample${top.samples > 1 ? "s" : ""} above the bar)`,
          `Other IPs: ${fmt(legit.length)} (IP, sample) observations, p99 = ${fmt(p99)} connections`,
          `Per-IP limit = max(${MIN_PER_IP_LIMIT}, ⌈p99 ${fmt(p99)} × headroom ${ctx.t.perIpHeadroom}⌉) = ${limit}${separates ? ` < ${fmt(top.peak)} (the flood)` : ` ≥ ${fmt(top.peak)}: no separation`}`,
          `limit_req rate = ${limit} connections × ${REQUESTS_PER_CONNECTION_PER_S} r/s (assumes ≥ 200 ms per request per connection; measure in dry-run) = ${rate} r/s, burst ${burst}`,
        ],
        snippets,
        caveats: [
          "Users behind NAT, CGNAT, corporate proxies, CDNs or load balancers share one address: a per-IP limit hits all of them. Behind a CDN/LB configure ngx_http_realip_module first, or $binary_remote_addr is the proxy.",
          "iptables connlimit / nftables ct count need connection tracking (size the conntrack table) and group by source address; prefer nginx limit_conn when nginx terminates HTTP.",
          "nginx counts a connection only once its request header is read; with HTTP/2 every concurrent request counts as a connection.",
          "JSON-RPC batches are one request: limit_req does not see their size; cap bodies with client_max_body_size.",
          "Default reject status is 503; the snippets use 429 so API clients can back off.",
          "The dry-run switches need nginx ≥ 1.17.1 (limit_req_dry_run) and ≥ 1.17.6 (limit_conn_dry_run).",
          ...(local.length > 0
            ? [
                `Loopback sources above the bar (${local.map(([ip]) => ip).join(", ")}) are processes on this host, e.g. a local proxy: they are left out of the limit and of the p99.`,
              ]
            : []),
        ],
        expectedEffect: `The busiest address stays at or below ${limit} concurrent connections; ordinary clients are unaffected (their p99 is ${fmt(p99)}).`,
        verification: describeVerification(ctx, {
          metric: "top_ip_connections",
          direction: "decrease",
          minimumWindowMinutes: 30,
          how: "Compare the busiest IP's concurrent connections before and after enforcing (not during dry-run).",
        }),
        sources: sources("nginxLimitConn", "nginxLimitReq", "nginxRealip", "connlimit", "nftCount"),
      }),
    ];
  },
};

export const FLOOD_RULES: readonly Rule[] = [flood];
