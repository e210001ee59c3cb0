import { RULES } from "./evaluate.js";
import { DEFAULT_THRESHOLDS } from "./thresholds.js";

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** Markdown table of every rule (README "Rules" section is checked against it by a test). */
export function renderRulesTable(): string {
  const rows = RULES.map((r) =>
    [
      `\`${r.id}\``,
      r.title,
      r.kind,
      [r.families.join(", "), r.clients.length ? `(${r.clients.join(", ")})` : ""].filter(Boolean).join(" "),
      r.gate,
      r.watches.join("; "),
      r.snippetKinds.join(", ") || "—",
      `\`${r.verificationMetric}\``,
      r.sources.map((s) => `[${s.title.split(":")[0]}](${s.url})`).join(", "),
    ].map(cell),
  );
  const head = [
    "Rule",
    "Title",
    "Kind",
    "Families (clients)",
    "Gate / condition",
    "Watches",
    "Snippets",
    "Verified on",
    "Sources",
  ];
  return [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

export function renderThresholdsTable(): string {
  const rows = Object.entries(DEFAULT_THRESHOLDS).map(([k, v]) => `| \`${k}\` | ${v} |`);
  return ["| Threshold | Default |", "| --- | --- |", ...rows].join("\n");
}

/** Table rows as trimmed cells (ignores alignment/padding, so prettier-formatted tables compare equal). */
export function tableCells(markdown: string): string[][] {
  return markdown
    .split("\n")
    .filter((l) => l.trim().startsWith("|") && !/^\|\s*:?-{3,}/.test(l.trim()))
    .map((l) =>
      l
        .trim()
        .replace(/^\||\|$/g, "")
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}
