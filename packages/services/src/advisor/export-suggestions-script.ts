import type { Snippet } from "@rpcpulse/advisor";
import { AppError } from "@rpcpulse/config";
import { z } from "zod";
import type { ServiceContext, ServiceDeps } from "../context.js";
import { listSuggestions } from "./list-suggestions.js";
import type { SuggestionView } from "./suggestion-view.js";

/**
 * Open suggestions of an organization (or one node) as a shell script for review. RPC Pulse never
 * changes a node by itself, and the script changes nothing as it stands: each suggestion's snippets
 * sit in a function that only runs when the operator names it on the command line
 * (`bash script.sh apply 2`), after reading it; restarts and reloads stay commented out.
 * Snippet files are written with quoted heredocs, so their content is taken literally.
 */
export const ExportScriptInput = z.object({ nodeId: z.string().uuid().optional() });

const EXPORTED_STATES = ["open", "acknowledged"] as const;
const SAFE_PATH = /^\/[A-Za-z0-9_./@+-]{1,255}$/;

/** Every line of free text as a comment (no way to break out of it). */
function comment(text: string, prefix = "# "): string[] {
  return text
    .replace(/\r/g, "")
    .split("\n")
    .map((line) => `${prefix}${line}`.trimEnd());
}

function delimiterFor(content: string): string {
  let tag = "RPCPULSE_EOF";
  for (let i = 1; content.split("\n").some((line) => line.trim() === tag); i++) tag = `RPCPULSE_EOF_${i}`;
  return tag;
}

/** One snippet as its own function: it writes its file (after a backup of an existing one) or prints it. */
function snippetFunction(snippet: Snippet, id: string): string[] {
  const lines = [
    `snippet_${id.replace(".", "_")}() {`,
    `  # ${id}: ${snippet.title.replace(/\s+/g, " ")} (${snippet.kind})`,
  ];
  if (snippet.dryRunFirst) {
    lines.push("  # A measuring / dry-run variant: apply it first and read the logs before the enforcing one.");
  }
  const body = snippet.content.endsWith("\n") ? snippet.content : `${snippet.content}\n`;
  const tag = delimiterFor(body);
  if (snippet.filename && SAFE_PATH.test(snippet.filename)) {
    const file = snippet.filename;
    lines.push(
      `  if [ -e '${file}' ]; then cp -p '${file}' '${file}.rpcpulse-backup-'"$(date +%Y%m%d%H%M%S)"; echo "backed up ${file}"; fi`,
      `  echo "writing ${file}"`,
      `  cat > '${file}' <<'${tag}'`,
    );
  } else {
    // No file to write (flags, query parameters, rules to merge by hand): print it.
    if (snippet.filename) lines.push(...comment(`Where it goes: ${snippet.filename}`, "  # "));
    lines.push(`  cat <<'${tag}'`);
  }
  lines.push(...body.slice(0, -1).split("\n"), tag);
  if (snippet.applyCommand) {
    lines.push("  # Then, when you are ready (not run by this script):");
    lines.push(...comment(snippet.applyCommand, "  #   "));
    lines.push(`  echo ${shellQuote(`next (by hand): ${snippet.applyCommand.replace(/\s+/g, " ")}`)}`);
  }
  lines.push("}");
  return lines;
}

function suggestionBlock(s: SuggestionView, index: number): string[] {
  const d = s.draft;
  const out: string[] = [
    "",
    `# ${"=".repeat(94)}`,
    ...comment(`[${index}] ${s.severity.toUpperCase()} · ${s.title}`),
    ...comment(`node: ${s.nodeName} · rule ${s.ruleId} · suggestion ${s.id} · state ${s.state}`),
    ...comment(`opened ${s.openedAt.toISOString()} · last seen ${s.lastSeenAt.toISOString()}`),
    "#",
    ...comment(d.summary),
  ];
  if (d.evidence.length > 0) {
    out.push("#", "# Evidence:");
    for (const e of d.evidence) {
      out.push(
        ...comment(`  ${e.label}: ${e.observed} ${e.unit} (threshold ${e.comparison} ${e.threshold} ${e.unit})`),
      );
    }
  }
  if (d.arithmetic.length > 0) out.push("#", "# Arithmetic:", ...d.arithmetic.flatMap((a) => comment(`  ${a}`)));
  if (d.caveats.length > 0) out.push("#", "# Caveats:", ...d.caveats.flatMap((c) => comment(`  - ${c}`)));
  if (d.expectedEffect) out.push("#", ...comment(`Expected effect: ${d.expectedEffect}`));
  if (d.verification.how) out.push(...comment(`How to verify: ${d.verification.how}`));
  if (d.sources.length > 0)
    out.push("#", "# Sources:", ...d.sources.flatMap((src) => comment(`  ${src.title}: ${src.url}`)));
  if (d.snippets.length === 0) out.push("# Nothing to apply: an explanation, or a change made by hand.");
  d.snippets.forEach((snippet, i) => out.push(...snippetFunction(snippet, `${index}.${i + 1}`)));
  return out;
}

export interface ExportedScript {
  filename: string;
  content: string;
  suggestions: number;
}

/** Render the review script (any member may export; it only contains what the page shows). */
export async function exportSuggestionsScript(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: z.input<typeof ExportScriptInput> = {},
  now: Date = new Date(),
): Promise<ExportedScript> {
  const parsed = ExportScriptInput.safeParse(input);
  if (!parsed.success) throw new AppError("NOT_FOUND", "Node not found.");
  const suggestions = (await listSuggestions(deps, ctx, { ...parsed.data, states: [...EXPORTED_STATES] })).filter(
    (s) => s.kind !== "explanation" || s.draft.snippets.length > 0,
  );
  const scope = parsed.data.nodeId ? (suggestions[0]?.nodeName ?? "node") : ctx.organizationSlug;
  const safeScope = scope.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 60) || "org";
  const lines = [
    "#!/usr/bin/env bash",
    "# RPC Pulse tuning advisor: open suggestions, exported for review.",
    ...comment(`organization: ${ctx.organizationSlug}${parsed.data.nodeId ? ` · node: ${scope}` : ""}`),
    `# generated: ${now.toISOString()} · ${suggestions.length} suggestion(s)`,
    "#",
    "# RPC Pulse never changes a node by itself, and this script changes nothing as it stands.",
    "# Each snippet is a function that only runs when you name it, on the node the suggestion names:",
    "#   bash <this file>               lists the suggestions and their snippets (ids like 2.1)",
    "#   bash <this file> apply 2.1     writes snippet 2.1's file (an existing file is backed up first) or prints it",
    "# Measuring (dry-run) variants come before the enforcing ones: apply and watch them first.",
    "# Reloads and restarts are never run: they are printed for you to do.",
    "set -euo pipefail",
  ];
  suggestions.forEach((s, i) => lines.push(...suggestionBlock(s, i + 1)));
  lines.push(
    "",
    "list_suggestions() {",
    ...suggestions.flatMap((s, i) => [
      `  echo ${shellQuote(`[${i + 1}] ${s.severity} · ${s.nodeName} · ${s.title}`.replace(/\s+/g, " ").slice(0, 200))}`,
      ...s.draft.snippets.map(
        (sn, j) =>
          `  echo ${shellQuote(`    ${i + 1}.${j + 1}  ${`${sn.title}${sn.filename ? ` → ${sn.filename}` : ""}`.replace(/\s+/g, " ").slice(0, 230)}`)}`,
      ),
    ]),
    suggestions.length === 0 ? "  echo 'No open suggestions.'" : "  :",
    "}",
    "",
    'case "${1:-list}" in',
    "  list) list_suggestions ;;",
    "  apply)",
    '    id="${2:-}"',
    '    if ! [[ "$id" =~ ^[0-9]+\\.[0-9]+$ ]] || ! declare -F "snippet_${id/./_}" >/dev/null; then',
    '      echo "usage: $0 apply N.M   (a snippet id from: $0 list)" >&2; exit 2',
    "    fi",
    '    "snippet_${id/./_}" ;;',
    '  *) echo "usage: $0 [list | apply N.M]" >&2; exit 2 ;;',
    "esac",
    "",
  );
  return { filename: `rpcpulse-advice-${safeScope}.sh`, content: lines.join("\n"), suggestions: suggestions.length };
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
