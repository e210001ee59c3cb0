import type { Rule } from "../engine.js";
import { fmt, sumOf, valuesOf } from "../metrics.js";
import { sysctlSnippet } from "../snippets/sysctl.js";
import { sources } from "../sources.js";
import { describeVerification, draft, enoughSamples, evidence, impactOf, series } from "./common.js";

const INT_MAX = 2 ** 31 - 1;

const twRecycle: Rule = {
  descriptor: {
    id: "tcp-tw-recycle-obsolete",
    title: "net.ipv4.tcp_tw_recycle in a sysctl file (removed in Linux 4.12)",
    families: ["any"],
    clients: [],
    gate: "Any line in /etc/sysctl.conf, /etc/sysctl.d, /run/sysctl.d, /usr/lib/sysctl.d that sets it.",
    watches: ["settings.tcpTwRecycleLines"],
    kind: "obsolete-setting",
    snippetKinds: ["shell"],
    verificationMetric: "tw_outbound",
    sources: sources("tcp7", "bernat"),
  },
  evaluate(ctx) {
    const lines = ctx.input.settings?.tcpTwRecycleLines ?? [];
    const byFile = new Map<string, typeof lines>();
    for (const l of lines) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l]);
    return [...byFile.entries()].map(([file, ls]) => {
      const sed = ls.map((l) => `${l.line}s/^/# removed, gone since Linux 4.12: /`).join(";");
      return draft({
        ruleId: this.descriptor.id,
        fingerprint: `${this.descriptor.id}:${file}`,
        kind: "obsolete-setting",
        title: `Remove net.ipv4.tcp_tw_recycle from ${file}`,
        severity: "low",
        impact: impactOf("low", ls.length, 1, ">="),
        summary: `${file} sets net.ipv4.tcp_tw_recycle (line ${ls.map((l) => l.line).join(", ")}). The key was removed in Linux 4.12, so the line fails at boot ("No such file or directory"); on older kernels it dropped connections from clients behind NAT. Delete it; never re-add it.`,
        evidence: ls.map((l) =>
          evidence(ctx, {
            metric: "sysctl_file_line",
            label: `${file}:${l.line}: ${l.text}`,
            observed: 1,
            threshold: 0,
            comparison: ">",
            unit: "lines",
          }),
        ),
        arithmetic: [`${ls.length} line(s) in ${file}`],
        snippets: [
          {
            kind: "shell",
            title: `Comment out the stale line(s) in ${file}`,
            content: `sed -i.bak '${sed}' '${file.replace(/'/g, "'\\''")}'\nsysctl --system\n`,
            applyCommand: "review, then run as root",
          },
        ],
        caveats: [
          "Removing the line changes nothing at run time on Linux ≥ 4.12 (the key no longer exists); it stops the boot-time error and the bad advice spreading.",
        ],
        expectedEffect: "No more sysctl errors at boot; no behaviour change on current kernels.",
        verification: describeVerification(ctx, {
          metric: "tw_outbound",
          direction: "decrease",
          minimumWindowMinutes: 0,
          how: "The agent stops reporting the line after the next scan of the sysctl files.",
        }),
        sources: sources("tcp7", "bernat"),
        appliesWhen: { setting: "tcpTwRecycleLines", expected: "[]" },
      });
    });
  },
};

const twBucketOverflow: Rule = {
  descriptor: {
    id: "tw-bucket-overflow",
    title: "TIME_WAIT bucket overflows (TCPTimeWaitOverflow rising)",
    families: ["any"],
    clients: [],
    gate: "Sum of TCPTimeWaitOverflow increases in the window > 0.",
    watches: ["tw_overflows", "tcp_max_tw_buckets"],
    kind: "change",
    snippetKinds: ["sysctl"],
    verificationMetric: "tw_overflows",
    sources: sources("ipSysctl"),
  },
  evaluate(ctx) {
    const pts = series(ctx, "tw_overflows");
    if (!enoughSamples(ctx, pts)) return [];
    const total = sumOf(valuesOf(pts));
    if (total <= 0) return [];
    const reported = ctx.input.settings?.tcpMaxTwBuckets ?? null;
    const current = reported !== null && reported > 0 && reported < INT_MAX ? reported : null;
    const doubled = current === null ? null : Math.min(INT_MAX, current * 2);
    const snippets = current
      ? [
          sysctlSnippet("tw-buckets", "sysctl: more TIME_WAIT buckets", [
            { key: "net.ipv4.tcp_max_tw_buckets", value: doubled!, comment: `was ${current}; never lower it` },
          ]),
        ]
      : [];
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "change",
        title: `${fmt(total)} TIME_WAIT sockets destroyed early (bucket limit reached)`,
        severity: "medium",
        impact: impactOf("medium", total, 1, ">="),
        summary:
          'The kernel hit tcp_max_tw_buckets and destroyed TIME_WAIT sockets immediately (logged as "time wait bucket table overflow"). Raise the limit, and look for the connection churn that fills it.',
        evidence: [
          evidence(ctx, {
            metric: "tw_overflows",
            label: "TCPTimeWaitOverflow increase",
            observed: total,
            threshold: 0,
            comparison: ">",
            unit: "overflows",
            points: pts,
          }),
        ],
        arithmetic: current
          ? [`tcp_max_tw_buckets ${fmt(current)} × 2 = ${fmt(doubled!)} (at most 2^31 − 1)`]
          : ["tcp_max_tw_buckets not reported: double your current value"],
        snippets,
        caveats: [
          'Never lower tcp_max_tw_buckets (kernel docs: "you _must_ not lower the limit artificially").',
          "Each TIME_WAIT socket costs ~168 B; doubling costs little memory.",
        ],
        expectedEffect: "TCPTimeWaitOverflow stops increasing.",
        verification: describeVerification(ctx, {
          metric: "tw_overflows",
          direction: "decrease",
          minimumWindowMinutes: 30,
          how: "Compare overflow increases per sample before and after.",
        }),
        sources: sources("ipSysctl", "bernat"),
        appliesWhen: current ? { setting: "tcpMaxTwBuckets", expected: `>=${doubled}` } : undefined,
      }),
    ];
  },
};

export const KERNEL_STALE_RULES: readonly Rule[] = [twRecycle, twBucketOverflow];
