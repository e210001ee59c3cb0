/** Targets of the validator rules: one per registered validator stash of the rule's organization. */
import { listValidatorOfflineReports, listValidatorStatuses } from "@rpcpulse/db/producers";
import { type AlertRuleRow } from "@rpcpulse/db/alerting";
import { type SqlClient } from "@rpcpulse/db/sql";
import { findNetwork } from "@rpcpulse/domain";
import type { Measurement } from "./measure.js";
import { measureValidator } from "./measure-validators.js";
import { resolveThresholds, type AlertRuleType } from "./rule-params.js";

export interface ValidatorAlertTarget {
  kind: "producer";
  id: string;
  key: string;
  name: string;
  blockIntervalMs: number | null;
  measurement: Measurement;
}

const shortStash = (stash: string): string => `${stash.slice(0, 6)}…${stash.slice(-4)}`;

export async function collectValidatorTargets(
  deps: { sql: SqlClient },
  rules: readonly AlertRuleRow[],
  now: Date,
): Promise<Map<string, ValidatorAlertTarget[]>> {
  const out = new Map<string, ValidatorAlertTarget[]>();
  if (rules.length === 0) return out;
  const validators = await listValidatorStatuses(deps.sql, {
    organizationIds: [...new Set(rules.map((r) => r.organizationId))],
  });
  const windowOf = (r: AlertRuleRow) => resolveThresholds(r.type as AlertRuleType, r.params).windowMinutes;
  const longest = Math.max(0, ...rules.map(windowOf));
  const offline = await listValidatorOfflineReports(deps.sql, {
    producerIds: validators.map((v) => v.id),
    since: new Date(now.getTime() - longest * 60_000),
    limit: 50,
  });
  for (const rule of rules) {
    out.set(
      rule.id,
      validators
        .filter((v) => v.organizationId === rule.organizationId)
        .map((v) => ({
          kind: "producer" as const,
          id: v.id,
          key: `producer:${v.id}`,
          name: `validator ${shortStash(v.account)} (${v.network})`,
          blockIntervalMs: findNetwork(v.network)?.blockIntervalMs ?? null,
          measurement: measureValidator(rule.type as AlertRuleType, v, offline, { minutes: windowOf(rule) }, now),
        })),
    );
  }
  return out;
}
