import type { Prisma, PrismaClient } from "../sql/client.js";
import { z } from "zod";
import type { SqlClient } from "../sql/sql-client.js";
import { dbDate, dbNumber } from "../sql/row-values.js";

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

const StateRow = z.object({
  rule_id: z.string(),
  target_key: z.string(),
  organization_id: z.string(),
  target_name: z.string(),
  status: z.enum(["ok", "pending", "degraded", "firing"]),
  since: dbDate,
  breach_since: dbDate.nullable(),
  firing_since: dbDate.nullable(),
  clear_since: dbDate.nullable(),
  last_value: dbNumber.nullable(),
  summary: z.string(),
  last_notified_at: dbDate.nullable(),
  dedup_key: z.string().nullable(),
  silenced: z.boolean(),
  evaluated_at: dbDate,
});

/** The states of the given rules (the evaluation round's starting point); plain SQL, one query. */
export async function listAlertStatesForRules(sql: SqlClient, ruleIds: readonly string[]): Promise<AlertStateRow[]> {
  if (ruleIds.length === 0) return [];
  const { rows } = await sql.query(
    `SELECT rule_id, target_key, organization_id, target_name, status::text AS status, since, breach_since,
            firing_since, clear_since, last_value, summary, last_notified_at, dedup_key, silenced, evaluated_at
     FROM alert_states WHERE rule_id = ANY($1::uuid[])`,
    [ruleIds],
  );
  return rows.map((raw) => {
    const r = StateRow.parse(raw);
    return {
      ruleId: r.rule_id,
      targetKey: r.target_key,
      organizationId: r.organization_id,
      targetName: r.target_name,
      status: r.status,
      since: r.since,
      breachSince: r.breach_since,
      firingSince: r.firing_since,
      clearSince: r.clear_since,
      lastValue: r.last_value,
      summary: r.summary,
      lastNotifiedAt: r.last_notified_at,
      dedupKey: r.dedup_key,
      silenced: r.silenced,
      evaluatedAt: r.evaluated_at,
    };
  });
}

export async function saveAlertState(db: PrismaClient | Prisma.TransactionClient, row: AlertStateRow): Promise<void> {
  const { ruleId, targetKey, ...rest } = row;
  await db.alertState.upsert({
    where: { ruleId_targetKey: { ruleId, targetKey } },
    create: row,
    update: rest,
  });
}

/**
 * saveAlertState for many rows in one statement (the evaluation round's states without an event);
 * each (rule, target) at most once per call.
 */
export async function saveAlertStates(sql: SqlClient, rows: readonly AlertStateRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (r: AlertStateRow) => T) => rows.map(pick);
  await sql.query(
    `INSERT INTO alert_states (rule_id, target_key, organization_id, target_name, status, since, breach_since,
       firing_since, clear_since, last_value, summary, last_notified_at, dedup_key, silenced, evaluated_at)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::alert_status[], $6::timestamptz[],
       $7::timestamptz[], $8::timestamptz[], $9::timestamptz[], $10::float8[], $11::text[], $12::timestamptz[],
       $13::text[], $14::bool[], $15::timestamptz[])
     ON CONFLICT (rule_id, target_key) DO UPDATE SET organization_id = EXCLUDED.organization_id,
       target_name = EXCLUDED.target_name, status = EXCLUDED.status, since = EXCLUDED.since,
       breach_since = EXCLUDED.breach_since, firing_since = EXCLUDED.firing_since, clear_since = EXCLUDED.clear_since,
       last_value = EXCLUDED.last_value, summary = EXCLUDED.summary, last_notified_at = EXCLUDED.last_notified_at,
       dedup_key = EXCLUDED.dedup_key, silenced = EXCLUDED.silenced, evaluated_at = EXCLUDED.evaluated_at`,
    [
      column((r) => r.ruleId),
      column((r) => r.targetKey),
      column((r) => r.organizationId),
      column((r) => r.targetName),
      column((r) => r.status),
      column((r) => r.since),
      column((r) => r.breachSince),
      column((r) => r.firingSince),
      column((r) => r.clearSince),
      column((r) => r.lastValue),
      column((r) => r.summary),
      column((r) => r.lastNotifiedAt),
      column((r) => r.dedupKey),
      column((r) => r.silenced),
      column((r) => r.evaluatedAt),
    ],
  );
}

/**
 * deleteAlertStatesExcept for many rules in one statement: states of `ruleIds` whose (rule, target)
 * is not in `keep`.
 */
export async function deleteAlertStatesOutside(
  sql: SqlClient,
  input: { ruleIds: readonly string[]; keep: readonly { ruleId: string; targetKey: string }[] },
): Promise<void> {
  if (input.ruleIds.length === 0) return;
  await sql.query(
    `DELETE FROM alert_states s
     WHERE s.rule_id = ANY($1::uuid[])
       AND NOT EXISTS (SELECT 1 FROM unnest($2::uuid[], $3::text[]) AS k(rule_id, target_key)
                       WHERE k.rule_id = s.rule_id AND k.target_key = s.target_key)`,
    [input.ruleIds, input.keep.map((k) => k.ruleId), input.keep.map((k) => k.targetKey)],
  );
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
