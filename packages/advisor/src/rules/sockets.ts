import type { Rule } from "../engine.js";
import { fmt, maxOf, nextPowerOfTwo, pct, sampleIntervalSeconds, sumOf, valuesOf } from "../metrics.js";
import { nginxListenBacklog } from "../snippets/nginx.js";
import { sysctlSnippet, type SysctlLine } from "../snippets/sysctl.js";
import { sources } from "../sources.js";
import type { Snippet } from "../types.js";
import { describeVerification, draft, enoughSamples, evidence, impactOf, series } from "./common.js";

const finWait2: Rule = {
  descriptor: {
    id: "fin-wait2-orphans",
    title: "Orphaned FIN_WAIT2 sockets piling up",
    families: ["any"],
    clients: [],
    gate: "Peak FIN_WAIT2 ≥ finWait2Min and orphans ≥ orphansMin or rising; tcp_fin_timeout suggested only when above 30 s.",
    watches: ["tcp_fin_wait2", "sock_orphan", "tcp_fin_timeout"],
    kind: "change",
    snippetKinds: ["sysctl"],
    verificationMetric: "fin_wait2",
    sources: sources("ipSysctl", "tcp7"),
  },
  evaluate(ctx) {
    const fw = series(ctx, "fin_wait2");
    const orph = series(ctx, "orphans");
    if (!enoughSamples(ctx, fw) || !enoughSamples(ctx, orph)) return [];
    const peakFw = maxOf(valuesOf(fw)) ?? 0;
    const peakOrph = maxOf(valuesOf(orph)) ?? 0;
    const rising = orph[orph.length - 1]!.value > orph[0]!.value;
    if (peakFw < ctx.t.finWait2Min || (peakOrph < ctx.t.orphansMin && !rising)) return [];
    const current = ctx.input.settings?.tcpFinTimeout ?? 60;
    const proposed = 30;
    const snippets =
      current > proposed
        ? [
            sysctlSnippet("fin-timeout", "sysctl: shorter FIN_WAIT2 for orphans", [
              {
                key: "net.ipv4.tcp_fin_timeout",
                value: proposed,
                comment: `was ${current}; applies only to orphaned FIN_WAIT2 sockets`,
              },
            ]),
          ]
        : [];
    const severity = "medium";
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: snippets.length ? "change" : "explanation",
        title: `${fmt(peakFw)} FIN_WAIT2 sockets, ${fmt(peakOrph)} orphans`,
        severity,
        impact: impactOf(severity, peakFw, ctx.t.finWait2Min, ">="),
        summary: `This host closed connections whose peers never finished closing: ${fmt(peakFw)} sockets waited in FIN_WAIT2 and ${fmt(peakOrph)} were orphaned (no process owns them any more). tcp_fin_timeout bounds how long an orphan stays in FIN_WAIT2.`,
        evidence: [
          evidence(ctx, {
            metric: "fin_wait2",
            label: "FIN_WAIT2 sockets",
            observed: peakFw,
            threshold: ctx.t.finWait2Min,
            comparison: ">=",
            unit: "sockets",
            points: fw,
          }),
          evidence(ctx, {
            metric: "orphans",
            label: "Orphaned sockets",
            observed: peakOrph,
            threshold: ctx.t.orphansMin,
            comparison: ">=",
            unit: "sockets",
            points: orph,
          }),
        ],
        arithmetic: [
          `tcp_fin_timeout ${current} s → ${snippets.length ? proposed : current} s: an orphan leaves FIN_WAIT2 at most ${snippets.length ? fmt(current / proposed, 1) + "× sooner" : "as now"}`,
          `Orphans ${fmt(orph[0]!.value)} → ${fmt(orph[orph.length - 1]!.value)} over the window; each may hold up to ~64 KiB of unswappable memory → up to ${fmt((peakOrph * 64) / 1024, 1)} MiB`,
        ],
        snippets,
        caveats: [
          "tcp_fin_timeout does NOT shorten TIME_WAIT (fixed 60 s); it only affects orphaned FIN_WAIT2 sockets.",
          "Don't lower tcp_max_orphans to hide the symptom.",
          "Many half-closed peers can be a sign of clients that vanish (mobile networks) or of a slowloris-style attack.",
        ],
        expectedEffect: "FIN_WAIT2 and orphan counts fall roughly in proportion to the shorter timeout.",
        verification: describeVerification(ctx, {
          metric: "fin_wait2",
          direction: "decrease",
          minimumWindowMinutes: 30,
          how: (w) => `Compare FIN_WAIT2 counts ${w} before and after.`,
        }),
        sources: sources("ipSysctl", "tcp7"),
        appliesWhen: snippets.length ? { setting: "tcpFinTimeout", expected: `<=${proposed}` } : undefined,
      }),
    ];
  },
};

/** Share of steps that do not decrease, and the net growth. */
function monotoneGrowth(values: readonly number[]): { share: number; growth: number } {
  let up = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! >= values[i - 1]!) up++;
  return { share: values.length > 1 ? up / (values.length - 1) : 0, growth: values[values.length - 1]! - values[0]! };
}

const closeWait: Rule = {
  descriptor: {
    id: "close-wait-leak",
    title: "CLOSE_WAIT growing: an application does not close its sockets",
    families: ["any"],
    clients: [],
    gate: "CLOSE_WAIT ends ≥ closeWaitMin, grew over the window, and ≥ 60 % of steps did not decrease.",
    watches: ["tcp_close_wait"],
    kind: "explanation",
    snippetKinds: ["shell"],
    verificationMetric: "close_wait",
    sources: sources("procNetTcp"),
  },
  evaluate(ctx) {
    const pts = series(ctx, "close_wait");
    if (!enoughSamples(ctx, pts)) return [];
    const values = valuesOf(pts);
    const last = values[values.length - 1]!;
    const { share, growth } = monotoneGrowth(values);
    if (last < ctx.t.closeWaitMin || growth <= 0 || share < ctx.t.closeWaitMonotoneShare) return [];
    const minutesSpan = (pts[pts.length - 1]!.time.getTime() - pts[0]!.time.getTime()) / 60_000;
    const severity = last >= ctx.t.closeWaitMin * 10 ? "high" : "medium";
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "explanation",
        title: `CLOSE_WAIT grew to ${fmt(last)}: a socket leak in an application`,
        severity,
        impact: impactOf(severity, last, ctx.t.closeWaitMin, ">="),
        summary: `The remote side closed ${fmt(last)} connections but the local process never called close(). No sysctl fixes this: the sockets (and their file descriptors) stay until the process closes them or exits. Find the process and fix, upgrade or restart it.`,
        evidence: [
          evidence(ctx, {
            metric: "close_wait",
            label: "CLOSE_WAIT sockets",
            observed: last,
            threshold: ctx.t.closeWaitMin,
            comparison: ">=",
            unit: "sockets",
            points: pts,
          }),
        ],
        arithmetic: [
          `${fmt(values[0]!)} → ${fmt(last)} over ${fmt(minutesSpan, 1)} min = +${fmt(growth)} (${minutesSpan > 0 ? fmt(growth / minutesSpan, 1) : "–"}/min)`,
          `${pct(share)} of sample-to-sample steps did not decrease (threshold ${pct(ctx.t.closeWaitMonotoneShare)})`,
        ],
        snippets: [
          {
            kind: "shell",
            title: "Which process holds the CLOSE_WAIT sockets, and toward which peers",
            content: `# processes owning CLOSE_WAIT sockets, most first\nss -Htanp state close-wait | grep -o 'users:(("[^"]*",pid=[0-9]*' | sort | uniq -c | sort -rn | head\n# local port : peer, most first\nss -Htan state close-wait | awk '{print $3" <- "$4}' | sort | uniq -c | sort -rn | head\n`,
            applyCommand: "run as root (read-only)",
          },
        ],
        caveats: [
          "A restart frees the sockets but the leak comes back; report it to the software's maintainers with the ss output.",
          "Each leaked socket also holds a file descriptor: watch the open-files limit of that process.",
        ],
        expectedEffect: "After the fix CLOSE_WAIT stays near zero instead of growing.",
        verification: describeVerification(ctx, {
          metric: "close_wait",
          direction: "decrease",
          minimumWindowMinutes: 60,
          how: (w) => `Compare CLOSE_WAIT over ${w} before and after the fix or restart.`,
        }),
        sources: sources("procNetTcp", "tcp7"),
      }),
    ];
  },
};

const NGINX_DEFAULT_BACKLOG = 511;

const listenOverflows: Rule = {
  descriptor: {
    id: "listen-overflows",
    title: "Listen queue overflows: accept queue too short for bursts",
    families: ["any"],
    clients: [],
    gate: "Sum of ListenOverflows increases ≥ listenOverflowsMin over the window.",
    watches: ["listen_overflows", "listen_drops", "somaxconn", "nginx listen backlog"],
    kind: "change",
    snippetKinds: ["sysctl", "nginx"],
    verificationMetric: "listen_overflows",
    sources: sources("snmpCounter", "ipSysctl", "nginxCore"),
  },
  evaluate(ctx) {
    const pts = series(ctx, "listen_overflows");
    if (!enoughSamples(ctx, pts)) return [];
    const total = sumOf(valuesOf(pts));
    if (total < ctx.t.listenOverflowsMin) return [];
    const peak = maxOf(valuesOf(pts)) ?? 0;
    const interval = sampleIntervalSeconds(ctx.input.window.samples);
    const somaxconn = ctx.input.settings?.somaxconn ?? 4096;
    const appBacklog = ctx.input.settings?.nginx?.listenBacklog ?? NGINX_DEFAULT_BACKLOG;
    const effective = Math.min(appBacklog, somaxconn);
    const proposed = Math.min(65535, Math.max(1024, nextPowerOfTwo(effective + peak)));
    const ports = ctx.input.node.publicPorts.length ? ctx.input.node.publicPorts : [80];
    const snippets: Snippet[] = [];
    const lines: SysctlLine[] = [];
    if (proposed > somaxconn)
      lines.push({
        key: "net.core.somaxconn",
        value: proposed,
        comment: `was ${somaxconn}; caps every listen() backlog`,
      });
    const synBacklog = ctx.input.settings?.tcpMaxSynBacklog ?? null;
    const peakSynRecv = maxOf(ctx.input.window.samples.map((s) => s.tcpSynRecv ?? 0)) ?? 0;
    // The SYN queue only matters when half-open connections pile up (SYN_RECV near its limit).
    if (synBacklog !== null && peakSynRecv >= synBacklog / 2 && proposed > synBacklog) {
      lines.push({
        key: "net.ipv4.tcp_max_syn_backlog",
        value: proposed,
        comment: `was ${synBacklog}; ${peakSynRecv} SYN_RECV at the peak`,
      });
    }
    if (lines.length) snippets.push(sysctlSnippet("listen-backlog", "sysctl: longer accept queues", lines));
    if (ctx.input.settings?.nginx?.present !== false)
      for (const port of ports) snippets.push(nginxListenBacklog({ port, backlog: proposed }));
    const severity = total >= 100 ? "high" : "medium";
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "change",
        title: `${fmt(total)} connection attempts dropped: accept queue full`,
        severity,
        impact: impactOf(severity, total, ctx.t.listenOverflowsMin, ">="),
        summary: `The kernel dropped ${fmt(total)} SYNs because a listening socket's accept queue was full (TcpExt ListenOverflows). The queue is min(application backlog, net.core.somaxconn); nginx uses backlog=511 unless its listen line says otherwise, so raising somaxconn alone does not help nginx.`,
        evidence: [
          evidence(ctx, {
            metric: "listen_overflows",
            label: "ListenOverflows per sample",
            observed: total,
            threshold: ctx.t.listenOverflowsMin,
            comparison: ">=",
            unit: "overflows (sum)",
            points: pts,
          }),
        ],
        arithmetic: [
          `Accept queue now: min(app backlog ${fmt(appBacklog)}${ctx.input.settings?.nginx?.listenBacklog ? "" : " (nginx default)"}, somaxconn ${fmt(somaxconn)}) = ${fmt(effective)}`,
          `Worst sample: ${fmt(peak)} overflows in ~${fmt(interval)} s (${fmt(peak / interval, 1)}/s); total ${fmt(total)} in the window`,
          `Queue that absorbs that burst: ${fmt(effective)} + ${fmt(peak)} = ${fmt(effective + peak)} → next power of two, at least 1024, at most 65535: ${fmt(proposed)}`,
        ],
        snippets,
        caveats: [
          "Both numbers must grow: the kernel uses min(backlog, somaxconn). Edit the existing listen line (backlog= may appear once per address:port, and keep ssl/http2 parameters you have).",
          "A longer queue hides a slow accept loop; if the application is CPU-bound, more workers help more than a longer queue.",
          "tcp_syncookies must not be used to stand against a legal connection rate (kernel docs).",
        ],
        expectedEffect: "ListenOverflows stops increasing during bursts of the size seen.",
        verification: describeVerification(ctx, {
          metric: "listen_overflows",
          direction: "decrease",
          minimumWindowMinutes: 60,
          how: (w) => `Compare ListenOverflows increases per sample over ${w} before and after.`,
        }),
        sources: sources("snmpCounter", "ipSysctl", "nginxCore"),
        appliesWhen: proposed > somaxconn ? { setting: "somaxconn", expected: `>=${proposed}` } : undefined,
      }),
    ];
  },
};

export const SOCKET_RULES: readonly Rule[] = [finWait2, closeWait, listenOverflows];
