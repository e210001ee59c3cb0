import { Prisma, type PrismaClient } from "../sql/client.js";

/**
 * Relational queries on suggestions and their events (prisma/schema/advisor.prisma). Reads that
 * serve a person name the organization, so another organization's suggestion id behaves like one
 * that does not exist. The worker's writes go through applySuggestionPlan: one transaction per node,
 * every state change guarded by the state it was decided from (a concurrent operator action wins,
 * the worker's change is dropped and redone on its next run).
 */

export type SuggestionStateValue =
  "open" | "acknowledged" | "applied" | "verified" | "not_effective" | "closed" | "dismissed" | "auto_closed";
export type SuggestionKindValue = "change" | "explanation" | "obsolete-setting";
export type SuggestionSeverityValue = "info" | "low" | "medium" | "high" | "critical";

export interface SuggestionRow {
  id: string;
  organizationId: string;
  nodeId: string;
  nodeName: string;
  fingerprint: string;
  ruleId: string;
  kind: SuggestionKindValue;
  severity: SuggestionSeverityValue;
  impact: number;
  title: string;
  draft: unknown;
  state: SuggestionStateValue;
  dismissReason: string | null;
  openedAt: Date;
  lastSeenAt: Date;
  conditionClearedSince: Date | null;
  stateChangedAt: Date;
  appliedAt: Date | null;
  appliedBy: "operator" | "agent" | null;
  appliedByUserId: string | null;
  verifiedAt: Date | null;
  verification: unknown;
  verificationCheckedAt: Date | null;
  reopenCount: number;
}

export interface SuggestionEventRow {
  id: string;
  suggestionId: string;
  fromState: SuggestionStateValue | null;
  toState: SuggestionStateValue;
  actor: string;
  reason: string | null;
  at: Date;
}

const KIND_TO_DB = { change: "change", explanation: "explanation", "obsolete-setting": "obsolete_setting" } as const;
const KIND_FROM_DB = { change: "change", explanation: "explanation", obsolete_setting: "obsolete-setting" } as const;

const include = { node: { select: { name: true } } } satisfies Prisma.SuggestionInclude;
type Loaded = Prisma.SuggestionGetPayload<{ include: typeof include }>;

function toRow(s: Loaded): SuggestionRow {
  return {
    id: s.id,
    organizationId: s.organizationId,
    nodeId: s.nodeId,
    nodeName: s.node.name,
    fingerprint: s.fingerprint,
    ruleId: s.ruleId,
    kind: KIND_FROM_DB[s.kind],
    severity: s.severity,
    impact: s.impact,
    title: s.title,
    draft: s.draft,
    state: s.state,
    dismissReason: s.dismissReason,
    openedAt: s.openedAt,
    lastSeenAt: s.lastSeenAt,
    conditionClearedSince: s.conditionClearedSince,
    stateChangedAt: s.stateChangedAt,
    appliedAt: s.appliedAt,
    appliedBy: s.appliedBy,
    appliedByUserId: s.appliedByUserId,
    verifiedAt: s.verifiedAt,
    verification: s.verification,
    verificationCheckedAt: s.verificationCheckedAt,
    reopenCount: s.reopenCount,
  };
}

const SEVERITY_RANK: Record<SuggestionSeverityValue, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

/** Highest impact first, then severity, then newest. */
function byImpact(a: SuggestionRow, b: SuggestionRow): number {
  return (
    b.impact - a.impact ||
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    b.openedAt.getTime() - a.openedAt.getTime()
  );
}

export interface ListSuggestionsFilter {
  organizationId: string;
  nodeId?: string;
  states?: readonly SuggestionStateValue[];
  severities?: readonly SuggestionSeverityValue[];
  /** Default 500. */
  limit?: number;
}

/** Suggestions of an organization (optionally one node), by impact. */
export async function listSuggestionRows(
  prisma: PrismaClient,
  filter: ListSuggestionsFilter,
): Promise<SuggestionRow[]> {
  const rows = await prisma.suggestion.findMany({
    where: {
      organizationId: filter.organizationId,
      ...(filter.nodeId ? { nodeId: filter.nodeId } : {}),
      ...(filter.states ? { state: { in: [...filter.states] } } : {}),
      ...(filter.severities ? { severity: { in: [...filter.severities] } } : {}),
    },
    include,
    orderBy: [{ impact: "desc" }, { openedAt: "desc" }],
    take: filter.limit ?? 500,
  });
  return rows.map(toRow).sort(byImpact);
}

/** One suggestion of the organization, or null (also for another organization's id). */
export async function findSuggestionRow(
  prisma: PrismaClient,
  input: { organizationId: string; suggestionId: string },
): Promise<SuggestionRow | null> {
  const row = await prisma.suggestion.findFirst({
    where: { id: input.suggestionId, organizationId: input.organizationId },
    include,
  });
  return row ? toRow(row) : null;
}

/** Every suggestion of a node, any state (the evaluation's starting point). */
export async function listNodeSuggestionRowsForEvaluation(
  prisma: PrismaClient,
  nodeId: string,
): Promise<SuggestionRow[]> {
  const rows = await prisma.suggestion.findMany({ where: { nodeId }, include });
  return rows.map(toRow);
}

export async function listSuggestionEventRows(
  prisma: PrismaClient,
  input: { organizationId: string; suggestionIds: readonly string[] },
): Promise<SuggestionEventRow[]> {
  if (input.suggestionIds.length === 0) return [];
  const rows = await prisma.suggestionEvent.findMany({
    where: { suggestionId: { in: [...input.suggestionIds] }, suggestion: { organizationId: input.organizationId } },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  return rows;
}

/** Applied suggestions whose change is at least `appliedBefore` old (verification candidates). */
export async function listAppliedSuggestionRows(
  prisma: PrismaClient,
  input: { appliedBefore: Date; checkedBefore: Date; limit: number },
): Promise<SuggestionRow[]> {
  const rows = await prisma.suggestion.findMany({
    where: {
      state: "applied",
      appliedAt: { lte: input.appliedBefore },
      OR: [{ verificationCheckedAt: null }, { verificationCheckedAt: { lte: input.checkedBefore } }],
    },
    include,
    orderBy: [{ verificationCheckedAt: { sort: "asc", nulls: "first" } }, { appliedAt: "asc" }],
    take: input.limit,
  });
  return rows.map(toRow);
}

/** Fields a plan may set on a suggestion (all optional on update). */
export interface SuggestionWrite {
  ruleId?: string;
  kind?: SuggestionKindValue;
  severity?: SuggestionSeverityValue;
  impact?: number;
  title?: string;
  draft?: unknown;
  state?: SuggestionStateValue;
  dismissReason?: string | null;
  lastSeenAt?: Date;
  conditionClearedSince?: Date | null;
  stateChangedAt?: Date;
  appliedAt?: Date | null;
  appliedBy?: "operator" | "agent" | null;
  appliedByUserId?: string | null;
  verifiedAt?: Date | null;
  verification?: unknown;
  verificationCheckedAt?: Date | null;
  reopenCount?: number;
}

export interface SuggestionEventWrite {
  fromState: SuggestionStateValue | null;
  toState: SuggestionStateValue;
  actor: string;
  reason?: string | null;
  at: Date;
}

export type SuggestionPlanStep =
  | {
      op: "create";
      organizationId: string;
      nodeId: string;
      fingerprint: string;
      fields: Required<
        Pick<SuggestionWrite, "ruleId" | "kind" | "severity" | "impact" | "title" | "draft" | "lastSeenAt">
      > &
        SuggestionWrite;
      event: SuggestionEventWrite;
    }
  | {
      op: "update";
      id: string;
      /** Only written when the row is still in this state (optimistic concurrency). */
      expectedState: SuggestionStateValue;
      fields: SuggestionWrite;
      event?: SuggestionEventWrite;
    };

const json = (value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull =>
  value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue);

function toData(fields: SuggestionWrite): Prisma.SuggestionUncheckedUpdateManyInput {
  const { kind, draft, verification, ...rest } = fields;
  return {
    ...rest,
    ...(kind !== undefined ? { kind: KIND_TO_DB[kind] } : {}),
    ...(draft !== undefined ? { draft: draft as Prisma.InputJsonValue } : {}),
    ...(verification !== undefined ? { verification: json(verification) } : {}),
  };
}

export interface PlanOutcome {
  created: number;
  updated: number;
  /** Updates skipped because the row's state had changed meanwhile. */
  stale: number;
}

/** Run a plan in one transaction (see the file comment). A create that races another is skipped. */
export async function applySuggestionPlan(
  prisma: PrismaClient,
  steps: readonly SuggestionPlanStep[],
): Promise<PlanOutcome> {
  if (steps.length === 0) return { created: 0, updated: 0, stale: 0 };
  return prisma.$transaction(async (tx) => {
    const outcome: PlanOutcome = { created: 0, updated: 0, stale: 0 };
    for (const step of steps) {
      if (step.op === "create") {
        const { kind, draft, verification, ...rest } = step.fields;
        const created = await tx.suggestion.createManyAndReturn({
          data: [
            {
              ...rest,
              organizationId: step.organizationId,
              nodeId: step.nodeId,
              fingerprint: step.fingerprint,
              kind: KIND_TO_DB[kind],
              draft: draft as Prisma.InputJsonValue,
              ...(verification !== undefined ? { verification: json(verification) } : {}),
            },
          ],
          skipDuplicates: true,
          select: { id: true },
        });
        if (created.length === 0) continue;
        await tx.suggestionEvent.create({ data: { suggestionId: created[0]!.id, ...step.event } });
        outcome.created++;
        continue;
      }
      const { count } = await tx.suggestion.updateMany({
        where: { id: step.id, state: step.expectedState },
        data: toData(step.fields),
      });
      if (count === 0) {
        outcome.stale++;
        continue;
      }
      if (step.event) await tx.suggestionEvent.create({ data: { suggestionId: step.id, ...step.event } });
      outcome.updated++;
    }
    return outcome;
  });
}

/**
 * A person's transition of one suggestion of their organization: written only if the row is still
 * in `expectedState`; false when it is not (or is not the organization's).
 */
export async function transitionSuggestionRow(
  prisma: PrismaClient,
  input: {
    organizationId: string;
    suggestionId: string;
    expectedState: SuggestionStateValue;
    fields: SuggestionWrite;
    event: SuggestionEventWrite;
  },
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.suggestion.updateMany({
      where: { id: input.suggestionId, organizationId: input.organizationId, state: input.expectedState },
      data: toData(input.fields),
    });
    if (count === 0) return false;
    await tx.suggestionEvent.create({ data: { suggestionId: input.suggestionId, ...input.event } });
    return true;
  });
}
