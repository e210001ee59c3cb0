import type { Rule } from "../engine.js";
import { fmt, maxOf, nextPowerOfTwo, pct, valuesOf } from "../metrics.js";
import { systemdNofileDropIn } from "../snippets/systemd.js";
import { sysctlSnippet } from "../snippets/sysctl.js";
import { sources } from "../sources.js";
import { describeVerification, draft, enoughSamples, evidence, impactOf, series, unitNameOf } from "./common.js";

const conntrack: Rule = {
  descriptor: {
    id: "conntrack-near-full",
    title: "Connection tracking table near full",
    families: ["any"],
    clients: [],
    gate: "nf_conntrack_count / nf_conntrack_max ≥ 0.8 at the peak (only where conntrack is loaded).",
    watches: ["conntrack_count", "conntrack_max"],
    kind: "change",
    snippetKinds: ["sysctl"],
    verificationMetric: "conntrack_ratio",
    sources: sources("conntrackSysctl"),
  },
  evaluate(ctx) {
    const pts = series(ctx, "conntrack_ratio");
    if (!enoughSamples(ctx, pts)) return [];
    const peak = maxOf(valuesOf(pts)) ?? 0;
    if (peak < ctx.t.conntrackRatio) return [];
    const row = ctx.input.window.samples.find(
      (s) =>
        s.conntrackMax &&
        s.conntrackCount !== null &&
        s.conntrackCount !== undefined &&
        s.conntrackCount / s.conntrackMax === peak,
    )!;
    const max = row.conntrackMax!;
    const count = row.conntrackCount!;
    const proposed = Math.min(2 ** 31 - 1, Math.max(max * 2, nextPowerOfTwo(Math.ceil(count / 0.5))));
    const severity = peak >= 0.95 ? "critical" : "high";
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "change",
        title: `Conntrack table at ${pct(peak)} (${fmt(count)} of ${fmt(max)})`,
        severity,
        impact: impactOf(severity, peak, ctx.t.conntrackRatio, ">="),
        summary: `When the table is full the kernel drops new connections ("nf_conntrack: table full, dropping packet"). Raise nf_conntrack_max, or stop tracking traffic that needs no state.`,
        evidence: [
          evidence(ctx, {
            metric: "conntrack_ratio",
            label: "Conntrack entries / max",
            observed: Number(peak.toFixed(4)),
            threshold: ctx.t.conntrackRatio,
            comparison: ">=",
            unit: "ratio",
            points: pts,
          }),
        ],
        arithmetic: [
          `${fmt(count)} / ${fmt(max)} = ${pct(peak)}`,
          `New max so the peak uses ≤ 50 %: max(2 × ${fmt(max)}, next power of two ≥ ${fmt(count)} / 0.5) = ${fmt(proposed)}`,
        ],
        snippets: [
          sysctlSnippet("conntrack", "sysctl: larger conntrack table", [
            { key: "net.netfilter.nf_conntrack_max", value: proposed, comment: `was ${max}; peak ${count}` },
          ]),
        ],
        caveats: [
          "nf_conntrack_* keys exist only after the module loads: load nf_conntrack early (e.g. /etc/modules-load.d/) or the sysctl file fails silently at boot.",
          "Each entry costs kernel memory; consider nf_conntrack_buckets too, and whether connlimit/state rules are needed at all.",
          "nf_conntrack_tcp_timeout_established defaults to 5 days: idle established entries linger.",
        ],
        expectedEffect: "Peak usage falls to about half of the new table; no more dropped packets.",
        verification: describeVerification(ctx, {
          metric: "conntrack_ratio",
          direction: "decrease",
          minimumWindowMinutes: 60,
          how: "Compare entries / max before and after.",
        }),
        sources: sources("conntrackSysctl"),
      }),
    ];
  },
};

const fds: Rule = {
  descriptor: {
    id: "fd-near-limit",
    title: "Open files near the process limit",
    families: ["any"],
    clients: [],
    gate: "open_fds / fd_limit ≥ 0.8 at the peak (the node process when the agent is told which one).",
    watches: ["open_fds", "fd_limit"],
    kind: "change",
    snippetKinds: ["systemd"],
    verificationMetric: "fd_ratio",
    sources: sources("fsSysctl", "systemdExec", "nginxMain"),
  },
  evaluate(ctx) {
    const pts = series(ctx, "fd_ratio");
    if (!enoughSamples(ctx, pts)) return [];
    const peak = maxOf(valuesOf(pts)) ?? 0;
    if (peak < ctx.t.fdRatio) return [];
    const row = ctx.input.window.samples.find(
      (s) => s.fdLimit && s.openFds !== null && s.openFds !== undefined && s.openFds / s.fdLimit === peak,
    )!;
    const limit = row.fdLimit!;
    const open = row.openFds!;
    const proposed = Math.min(1_048_576, Math.max(65_536, nextPowerOfTwo(open * 4)));
    const unit = unitNameOf(ctx);
    const severity = peak >= 0.95 ? "critical" : "high";
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "change",
        title: `${fmt(open)} of ${fmt(limit)} open files (${pct(peak)})`,
        severity,
        impact: impactOf(severity, peak, ctx.t.fdRatio, ">="),
        summary: `At the limit every accept() and file open fails with EMFILE ("Too many open files"). systemd keeps the soft limit at 1024 for select() compatibility; servers that handle more should raise it.`,
        evidence: [
          evidence(ctx, {
            metric: "fd_ratio",
            label: "Open files / limit",
            observed: Number(peak.toFixed(4)),
            threshold: ctx.t.fdRatio,
            comparison: ">=",
            unit: "ratio",
            points: pts,
          }),
        ],
        arithmetic: [
          `${fmt(open)} / ${fmt(limit)} = ${pct(peak)}`,
          `New limit: 4 × peak ${fmt(open)} = ${fmt(open * 4)} → next power of two, at least 65,536, at most fs.nr_open (1,048,576): ${fmt(proposed)}`,
        ],
        snippets: [systemdNofileDropIn({ unit, soft: proposed, hard: proposed })],
        caveats: [
          `The unit name ${unit} is a guess from the client; use yours (systemctl status <pid>).`,
          "The hard limit cannot exceed fs.nr_open (default 1,048,576).",
          "nginx in front: worker_connections cannot exceed its own limit; raise worker_rlimit_nofile too.",
          "If the count only ever grows, look for a descriptor leak (CLOSE_WAIT) before raising limits.",
        ],
        expectedEffect: "The open-files ratio falls below 25 % at today's peak; no EMFILE errors.",
        verification: describeVerification(ctx, {
          metric: "fd_ratio",
          direction: "decrease",
          minimumWindowMinutes: 30,
          how: "Compare open files / limit before and after the restart.",
        }),
        sources: sources("fsSysctl", "systemdExec", "nginxMain"),
      }),
    ];
  },
};

export const LIMIT_RULES: readonly Rule[] = [conntrack, fds];
