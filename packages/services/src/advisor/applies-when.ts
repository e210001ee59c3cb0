import type { AdvisorSettings, SuggestionDraft } from "@rpcpulse/advisor";

/**
 * Does a reported setting satisfy a suggestion's `appliesWhen`? `expected` is either an exact value
 * ("1", "15000 64999"; whitespace-normalised) or a numeric comparison (">=8192", "<=30", ">0", "<5").
 * For ipLocalPortRange the exact form is "low high" and a comparison is on the range's size.
 * Unknown settings (not reported, null) never match: "applied" must be seen, not assumed.
 */
export function settingMatches(
  settings: AdvisorSettings | null,
  appliesWhen: NonNullable<SuggestionDraft["appliesWhen"]>,
): boolean | null {
  if (!settings) return null;
  const value = (settings as Record<string, unknown>)[appliesWhen.setting];
  if (value === undefined || value === null) return null;
  const expected = appliesWhen.expected.trim().replace(/\s+/g, " ");
  const comparison = /^(>=|<=|>|<|=)\s*(-?\d+(?:\.\d+)?)$/.exec(expected);
  const numeric = numericOf(value);
  if (comparison) {
    if (numeric === null) return null;
    const target = Number(comparison[2]);
    switch (comparison[1]) {
      case ">=":
        return numeric >= target;
      case "<=":
        return numeric <= target;
      case ">":
        return numeric > target;
      case "<":
        return numeric < target;
      default:
        return numeric === target;
    }
  }
  if (Array.isArray(value) && expected === "[]") return value.length === 0;
  return textOf(value) === expected;
}

function numericOf(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (isRange(value)) return value.high - value.low + 1;
  if (Array.isArray(value)) return value.length;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return null;
}

function textOf(value: unknown): string {
  if (isRange(value)) return `${value.low} ${value.high}`;
  if (Array.isArray(value)) return String(value.length);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value).trim().replace(/\s+/g, " ");
}

function isRange(value: unknown): value is { low: number; high: number } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { low?: unknown }).low === "number" &&
    typeof (value as { high?: unknown }).high === "number"
  );
}
