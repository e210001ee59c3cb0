import type { Rule, RuleContext } from "../engine.js";
import { fmt, type Point } from "../metrics.js";
import { sources } from "../sources.js";
import { median } from "../stats/compare.js";
import type { AdvisorSample, Evidence, Severity, Snippet } from "../types.js";
import { describeVerification, draft, evidence, impactOf } from "./common.js";

/** Off by this much the clock is a problem of its own (TLS validity, logs, alert windows): high. */
const HIGH_MS = 60_000;
/** Below this the offset is small but still past the tolerance: low. */
const MEDIUM_MS = 5_000;

const isNum = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);
const seconds = (ms: number) => `${fmt(ms / 1000, Math.abs(ms) < 10_000 ? 1 : 0)} s`;
const signed = (ms: number) => `${ms > 0 ? "+" : ms < 0 ? "−" : ""}${seconds(Math.abs(ms))}`;

/**
 * One signal of the host clock's offset: the samples that measure it, those past the tolerance, and
 * the typical (median) offset of the latter (ms; positive = host clock ahead).
 */
interface Signal {
  points: Point[];
  beyond: Point[];
  offsetMs: number;
}

/**
 * The signal fires when at least minSamples samples are past the tolerance, the newest measurement
 * among them: a clock that was fixed inside the window stops the rule at once.
 */
function signalOf(ctx: RuleContext, points: Point[], past: (value: number) => boolean): Signal | null {
  const beyond = points.filter((p) => past(p.value));
  const newest = points[points.length - 1];
  if (beyond.length < ctx.t.minSamples || !newest || !past(newest.value)) return null;
  return { points, beyond, offsetMs: median(beyond.map((p) => p.value)) ?? 0 };
}

function pointsOf(samples: readonly AdvisorSample[], of: (s: AdvisorSample) => number | null | undefined): Point[] {
  const out: Point[] = [];
  for (const s of samples) {
    const v = of(s);
    if (isNum(v)) out.push({ time: s.time, value: v });
  }
  return out;
}

/** Read-only: is a time service running and synchronised, and how far off is it (timesyncd or chrony)? */
const TIME_SYNC_CHECK: Snippet = {
  kind: "shell",
  title: "Read-only checks: is the clock synchronised, and by which service",
  content: [
    "# 'System clock synchronized: yes' and 'NTP service: active' is the healthy answer",
    "timedatectl status",
    "# systemd-timesyncd: the server in use, the last offset and the poll interval",
    "timedatectl timesync-status",
    "systemctl status systemd-timesyncd --no-pager",
    "# chrony instead of timesyncd: offset to the reference ('System time') and its sources",
    "chronyc tracking",
    "chronyc sources -v",
    "",
  ].join("\n"),
  applyCommand: "run on the node host (read-only; one of systemd-timesyncd or chrony is usually installed)",
};

const clockSkew: Rule = {
  descriptor: {
    id: "clock-skew",
    title: "Host clock off",
    families: ["any"],
    clients: [],
    gate: "≥ minSamples samples, the newest included, whose offset is past clockSkewMs: the head block's timestamp ahead of the host clock (negative head age; a block is never younger than zero, so the host clock is behind), or the ingest's measured agent clock offset (clock_skew_ms, either direction). Explanation with read-only time-sync checks (timedatectl, systemd-timesyncd, chronyc).",
    watches: ["head_age_ms (negative)", "clock_skew_ms (ingest)"],
    kind: "explanation",
    snippetKinds: ["shell"],
    verificationMetric: "clock_skew_ms",
    sources: sources("timedatectl", "timesyncd", "chrony"),
  },
  evaluate(ctx) {
    const tol = ctx.t.clockSkewMs;
    const samples = ctx.input.window.samples;
    // A negative head age bounds the offset from one side only: the host clock is behind by at least that much.
    const head = signalOf(
      ctx,
      pointsOf(samples, (s) => s.headAgeMs),
      (v) => v < -tol,
    );
    const ingest = signalOf(
      ctx,
      pointsOf(samples, (s) => s.clockSkewMs),
      (v) => Math.abs(v) > tol,
    );
    if (!head && !ingest) return [];
    // The ingest measures both directions; the head only "behind, by at least".
    const offsetMs = ingest ? ingest.offsetMs : (head?.offsetMs ?? 0);
    const behind = offsetMs < 0;
    const abs = Math.abs(offsetMs);
    const severity: Severity = abs >= HIGH_MS ? "high" : abs >= MEDIUM_MS ? "medium" : "low";
    const direction = behind ? "behind" : "ahead";
    const headLead = head ? Math.abs(head.offsetMs) : null;

    const ev: Evidence[] = [];
    if (head)
      ev.push(
        evidence(ctx, {
          metric: "head_age_ms",
          label: "Head block timestamp ahead of the host clock (−head age)",
          observed: Math.round(Math.abs(head.offsetMs)) / 1000,
          threshold: tol / 1000,
          comparison: ">",
          unit: "s",
          points: head.points.map((p) => ({ time: p.time, value: p.value / 1000 })),
        }),
      );
    if (ingest)
      ev.push(
        evidence(ctx, {
          metric: "clock_skew_ms",
          label: "Agent clock − RPC Pulse server clock (measured at ingest)",
          observed: Math.round(Math.abs(ingest.offsetMs)) / 1000,
          threshold: tol / 1000,
          comparison: ">",
          unit: "s",
          points: ingest.points.map((p) => ({ time: p.time, value: p.value / 1000 })),
        }),
      );

    const title = ingest
      ? `Host clock ${seconds(abs)} ${direction}`
      : `Host clock at least ${seconds(abs)} behind the chain`;
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "explanation",
        title,
        severity,
        impact: impactOf(severity, abs, tol, ">"),
        summary: [
          ingest
            ? `The agent's clock is ${seconds(abs)} ${direction} of the RPC Pulse server's (median of ${ingest.beyond.length} batches past ±${seconds(tol)}).`
            : "",
          head && headLead !== null
            ? `The node's newest block carries a timestamp ${seconds(headLead)} in this host's future in ${head.beyond.length} samples: a block is produced before it arrives, so the host clock is behind the chain by at least that much.`
            : "",
          "Everything on this host that reads the time sees the shifted clock: head age and lag alerts, log timestamps, TLS certificate validity.",
          behind ? "A node whose clock is behind may hold back new blocks that look early to it." : "",
          "Nothing in the node's settings fixes this: check that one time service (systemd-timesyncd or chrony) runs and is synchronised.",
        ]
          .filter(Boolean)
          .join(" "),
        evidence: ev,
        arithmetic: [
          `Tolerance: clockSkewMs = ${seconds(tol)} (network transit and block propagation stay well under it)`,
          ...(head && headLead !== null
            ? [
                `Negative head age (host clock − block timestamp) in ${head.beyond.length} of ${head.points.length} samples; median ${signed(head.offsetMs)}, newest ${signed(head.points[head.points.length - 1]!.value)}`,
              ]
            : []),
          ...(ingest
            ? [
                `Ingest: agent clock − server clock past ±${seconds(tol)} in ${ingest.beyond.length} of ${ingest.points.length} samples; median ${signed(ingest.offsetMs)}, newest ${signed(ingest.points[ingest.points.length - 1]!.value)}`,
              ]
            : []),
          `Offset used: ${signed(offsetMs)} (${ingest ? "ingest measurement, both directions" : "head timestamps, a lower bound"})`,
        ],
        snippets: [TIME_SYNC_CHECK],
        caveats: [
          "A clock ahead of true time makes heads look older, which looks like a slow node: only the ingest measurement sees that direction.",
          "The ingest measurement includes the network transit of the batch (usually far below a second).",
          "In a container the clock is the host's (or the VM's): fix time sync there.",
          "Run one time service: chronyd and systemd-timesyncd are alternatives, not a pair.",
        ],
        expectedEffect: `Once the clock is synchronised the offset falls under ${seconds(tol)} and head age is never negative.`,
        verification: describeVerification(ctx, {
          metric: "clock_skew_ms",
          direction: "decrease",
          minimumWindowMinutes: 15,
          how: (w) => `Compare the host clock offset ${w} before and after time sync is fixed.`,
        }),
        sources: sources("timedatectl", "timesyncd", "chrony"),
      }),
    ];
  },
};

export const CLOCK_RULES: readonly Rule[] = [clockSkew];
