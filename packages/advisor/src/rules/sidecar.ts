import type { Rule } from "../engine.js";
import { fmt, percentile, valuesOf } from "../metrics.js";
import { sidecarQuerySnippet } from "../snippets/client.js";
import { sources } from "../sources.js";
import { describeVerification, draft, enoughSamples, evidence, impactOf, series } from "./common.js";

const sidecarLatency: Rule = {
  descriptor: {
    id: "sidecar-block-latency",
    title: "Slow Sidecar block endpoints",
    families: ["sidecar"],
    clients: [],
    gate: "p95 of the agent's Sidecar request latency ≥ sidecarP95Ms.",
    watches: ["total_ms (agent probe of /blocks/head/header)"],
    kind: "change",
    snippetKinds: ["sidecar-query"],
    verificationMetric: "latency_p95_ms",
    sources: sources("sidecarOpenapi", "sidecarReadme"),
  },
  evaluate(ctx) {
    const pts = series(ctx, "latency_p95_ms");
    if (!enoughSamples(ctx, pts)) return [];
    const p95 = percentile(valuesOf(pts), 95)!;
    if (p95 < ctx.t.sidecarP95Ms) return [];
    const p50 = percentile(valuesOf(pts), 50)!;
    const severity = p95 >= ctx.t.sidecarP95Ms * 3 ? "high" : "medium";
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "change",
        title: `Sidecar p95 ${fmt(p95)} ms: skip fee calculation and docs on block requests`,
        severity,
        impact: impactOf(severity, p95, ctx.t.sidecarP95Ms, ">="),
        summary: `Sidecar answered the agent's cheapest head request in ${fmt(p50)} ms (median) and ${fmt(p95)} ms (p95). Full block requests cost more: fee calculation alone queries the node per extrinsic. Callers that do not need fees should ask with noFees=true, leave eventDocs/extrinsicDocs off, and use /blocks/head/header for head checks.`,
        evidence: [
          evidence(ctx, {
            metric: "latency_p95_ms",
            label: "Sidecar latency p95",
            observed: Number(p95.toFixed(1)),
            threshold: ctx.t.sidecarP95Ms,
            comparison: ">=",
            unit: "ms",
            points: pts,
          }),
        ],
        arithmetic: [`p95 of ${pts.length} samples = ${fmt(p95)} ms ≥ ${ctx.t.sidecarP95Ms} ms (p50 ${fmt(p50)} ms)`],
        snippets: [
          sidecarQuerySnippet("Sidecar: cheaper block requests", [
            {
              path: "/blocks/head?noFees=true",
              comment: "latest finalized block without fee calculation (noFees defaults to false)",
            },
            { path: "/blocks/head/header?finalized=false", comment: "head checks: the best block's header only" },
            {
              path: "/blocks/12345?noFees=true&eventDocs=false&extrinsicDocs=false",
              comment: "a given block, no fees, no docs",
            },
          ]),
        ],
        caveats: [
          "With noFees=true the fee fields (partialFee, …) are absent: only for callers that don't show fees.",
          "finalized=false returns the newest, possibly unfinalized block.",
          "substrate-api-sidecar is deprecated in favour of polkadot-rest-api (same /v1 API); plan the move.",
          "Running Sidecar next to the node lowers latency but the host must be sized for both.",
        ],
        expectedEffect: "Lower p95 on block endpoints for callers that switch.",
        verification: describeVerification(ctx, {
          metric: "latency_p95_ms",
          direction: "decrease",
          minimumWindowMinutes: 60,
          how: (w) => `Compare the latency series ${w} before and after the callers switch.`,
        }),
        sources: sources("sidecarOpenapi", "sidecarReadme"),
      }),
    ];
  },
};

export const SIDECAR_RULES: readonly Rule[] = [sidecarLatency];
