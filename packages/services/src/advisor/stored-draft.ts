import type { SuggestionDraft, VerificationResult } from "@rpcpulse/advisor";
import { z } from "zod";

/**
 * What the suggestions.draft column holds: the rule's draft as evaluated last, plus one fact the
 * app tracks across evaluations: whether the node was ever seen WITHOUT the setting the suggestion
 * asks for (agent-detected "applied" needs a change, not a setting that was already there).
 */
export type StoredDraft = SuggestionDraft & { settingSeenUnapplied?: boolean };

/** The verification column: the comparison and the series it was made on (for the chart). */
export interface StoredVerification {
  result: VerificationResult;
  metric: string;
  direction: "decrease" | "increase";
  appliedAt: string;
  windowMinutes: number;
  resolution: "raw" | "1m";
  before: { from: string; to: string; points: { time: string; value: number }[] };
  after: { from: string; to: string; points: { time: string; value: number }[] };
  checkedAt: string;
}

const Loose = z.record(z.string(), z.unknown());

/** Read a stored draft defensively (rows written by older versions may lack newer fields). */
export function readStoredDraft(value: unknown): StoredDraft {
  const o = Loose.safeParse(value);
  const d = o.success ? o.data : {};
  const arr = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
  const str = (v: unknown, fallback = ""): string => (typeof v === "string" ? v : fallback);
  const verification = Loose.safeParse(d.verification);
  const v = verification.success ? verification.data : {};
  return {
    ...(d as Partial<StoredDraft>),
    ruleId: str(d.ruleId),
    fingerprint: str(d.fingerprint),
    kind: (["change", "explanation", "obsolete-setting"] as const).find((k) => k === d.kind) ?? "change",
    title: str(d.title),
    severity: (["info", "low", "medium", "high", "critical"] as const).find((s) => s === d.severity) ?? "info",
    impact: typeof d.impact === "number" ? d.impact : 0,
    summary: str(d.summary),
    evidence: arr(d.evidence),
    arithmetic: arr<string>(d.arithmetic).filter((x) => typeof x === "string"),
    snippets: arr(d.snippets),
    caveats: arr<string>(d.caveats).filter((x) => typeof x === "string"),
    expectedEffect: str(d.expectedEffect),
    verification: {
      metric: str(v.metric, "latency_p95_ms") as SuggestionDraft["verification"]["metric"],
      direction: v.direction === "increase" ? "increase" : "decrease",
      minimumWindowMinutes: typeof v.minimumWindowMinutes === "number" ? v.minimumWindowMinutes : 60,
      how: str(v.how),
    },
    sources: arr(d.sources),
  };
}

export function readStoredVerification(value: unknown): StoredVerification | null {
  const o = Loose.safeParse(value);
  if (!o.success || !o.data.result || !o.data.before || !o.data.after) return null;
  return o.data as unknown as StoredVerification;
}
