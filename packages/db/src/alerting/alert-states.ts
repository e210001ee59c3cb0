import type { Prisma, PrismaClient } from "../client.js";

export type AlertStatusValue = "ok" | "pending" | "degraded" | "firing";

export interface AlertStateRow {
  ruleId: string;
  targetKey: string;
  organizationId: string;
  targetName: string;
  status: AlertStatusValue;
  since: Date;
  breachSince: Date | null;
  firingSince: Date | null;
  clearSince: Date | null;
  lastValue: number | null;
  summary: string;
  lastNotifiedAt: Date | null;
  dedupKey: string | null;
  silenced: boolean;
  evaluatedAt: Date;
}

export async function listAlertStatesForRules(
  prisma: PrismaClient,
  ruleIds: readonly string[],
): Promise<AlertStateRow[]> {
  if (ruleIds.length === 0) return [];
  return prisma.alertState.findMany({ where: { ruleId: { in: [...ruleIds] } } });
}

export async function saveAlertState(db: PrismaClient | Prisma.TransactionClient, row: AlertStateRow): Promise<void> {
  const { ruleId, targetKey, ...rest } = row;
  await db.alertState.upsert({
    where: { ruleId_targetKey: { ruleId, targetKey } },
    create: row,
    update: rest,
  });
}

/** States of targets a rule no longer covers (node deleted, rule retargeted). */
export async function deleteAlertStatesExcept(
  prisma: PrismaClient,
  input: { ruleId: string; keepTargetKeys: readonly string[] },
): Promise<number> {
  const r = await prisma.alertState.deleteMany({
    where: { ruleId: input.ruleId, targetKey: { notIn: [...input.keepTargetKeys] } },
  });
  return r.count;
}

export interface ActiveAlertRow extends AlertStateRow {
  ruleName: string;
  ruleType: string;
}

/** Alerts of an organization that are not ok (firing first). */
export async function listActiveAlerts(prisma: PrismaClient, organizationId: string): Promise<ActiveAlertRow[]> {
  const rows = await prisma.alertState.findMany({
    where: { organizationId, status: { not: "ok" } },
    include: { rule: { select: { name: true, type: true } } },
    orderBy: [{ status: "desc" }, { since: "asc" }],
  });
  return rows.map(({ rule, ...s }) => ({ ...s, ruleName: rule.name, ruleType: rule.type }));
}

export interface AlertEventInsert {
  organizationId: string;
  ruleId: string;
  targetKey: string;
  targetName: string;
  kind: string;
  fromStatus: AlertStatusValue;
  toStatus: AlertStatusValue;
  value: number | null;
  title: string;
  body: string;
  dedupKey: string;
  silenced: boolean;
  createdAt: Date;
}

export interface AlertEventRow extends AlertEventInsert {
  id: string;
}

export async function insertAlertEvent(
  db: PrismaClient | Prisma.TransactionClient,
  event: AlertEventInsert,
): Promise<AlertEventRow> {
  return db.alertEvent.create({ data: event });
}

export async function listRecentAlertEvents(
  prisma: PrismaClient,
  input: { organizationId: string; limit: number },
): Promise<AlertEventRow[]> {
  return prisma.alertEvent.findMany({
    where: { organizationId: input.organizationId },
    orderBy: { createdAt: "desc" },
    take: input.limit,
  });
}
