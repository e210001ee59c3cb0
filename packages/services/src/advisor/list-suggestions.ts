import { AppError } from "@rpcpulse/config";
import {
  listSuggestionEventRows,
  listSuggestionRows,
  type SuggestionSeverityValue,
  type SuggestionStateValue,
} from "@rpcpulse/db/advisor";
import { z } from "zod";
import { type ServiceContext, type ServiceDeps } from "../context.js";
import { toSuggestionView, type SuggestionView } from "./suggestion-view.js";

/** States the advisor page lists by default: everything still asking for attention or showing a result. */
export const LISTED_STATES: readonly SuggestionStateValue[] = [
  "open",
  "acknowledged",
  "applied",
  "verified",
  "not_effective",
];

const SEVERITIES = ["info", "low", "medium", "high", "critical"] as const;
const STATES = [
  "open",
  "acknowledged",
  "applied",
  "verified",
  "not_effective",
  "closed",
  "dismissed",
  "auto_closed",
] as const;

export const ListSuggestionsInput = z.object({
  nodeId: z.string().uuid().optional(),
  /** Minimum severity shown. */
  severity: z.enum(SEVERITIES).optional(),
  states: z.array(z.enum(STATES)).min(1).max(8).optional(),
});
export type ListSuggestionsInput = z.input<typeof ListSuggestionsInput>;

function atLeast(min: SuggestionSeverityValue): SuggestionSeverityValue[] {
  return SEVERITIES.slice(SEVERITIES.indexOf(min));
}

/** Suggestions of the context's organization (any member), by impact; with their history. */
export async function listSuggestions(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: ListSuggestionsInput = {},
): Promise<SuggestionView[]> {
  const parsed = ListSuggestionsInput.safeParse(input);
  if (!parsed.success) throw new AppError("VALIDATION", "Invalid suggestion filter.");
  const p = parsed.data;
  const rows = await listSuggestionRows(deps.prisma, {
    organizationId: ctx.organizationId,
    ...(p.nodeId ? { nodeId: p.nodeId } : {}),
    states: p.states ?? LISTED_STATES,
    ...(p.severity ? { severities: atLeast(p.severity) } : {}),
  });
  const events = await listSuggestionEventRows(deps.prisma, {
    organizationId: ctx.organizationId,
    suggestionIds: rows.map((r) => r.id),
  });
  return rows.map((row) => toSuggestionView(row, events));
}
