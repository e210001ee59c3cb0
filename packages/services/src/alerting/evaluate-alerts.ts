/**
 * The evaluation job: every enabled rule × target, one state-machine step each; transitions are
 * written as events, delivered to the rule's channels (delivery log rows committed with the event,
 * then notify jobs: an outbox, swept by sweepUnqueuedDeliveries), and mirrored as automatic
 * incidents on status pages that list the target.
 */
import {
  deleteAlertStatesOutside,
  listAlertStatesForRules,
  listEnabledAlertRules,
  listEnabledChannels,
  listOrganizationNames,
  saveAlertState,
  saveAlertStates,
  saveAlertTransition,
  type AlertRuleRow,
  type AlertStateRow,
} from "@rpcpulse/db/alerting";
import type { NotificationMessage } from "@rpcpulse/notify";
import {
  isInMaintenance,
  listStatusComponentsForRef,
  openAutoIncident,
  resolveAutoIncident,
  updateAutoIncident,
} from "../status/index.js";
import { listOrganizationIdsInShard, type OrgShard } from "@rpcpulse/db/sql";
import type { EvaluateAlertsDeps } from "./alerting-deps.js";
import { collectAlertTargets, type AlertTarget } from "./collect-alert-inputs.js";
import { describeAlertEvent, describeCondition, formatDuration } from "./describe-alert.js";
import {
  initialAlertState,
  stepAlert,
  type AlertStateSnapshot,
  type AlertStepEvent,
  type EvaluatorRule,
} from "./evaluator.js";
import { queueStoredDelivery, serialiseMessage } from "./enqueue-delivery.js";
import { isEventRuleType, resolveThresholds, RULE_TYPES, type AlertRuleType } from "./rule-params.js";

export interface EvaluationReport {
  rules: number;
  targets: number;
  events: number;
  silenced: number;
  deliveries: number;
  incidentsOpened: number;
  incidentsResolved: number;
  errors: number;
  /** The first error of the round (later ones are counted only). */
  firstError?: string;
}

function evaluatorRule(rule: AlertRuleRow): EvaluatorRule {
  return {
    ...resolveThresholds(rule.type as AlertRuleType, rule.params),
    // A missed block is an event, not a condition that may pass: it fires at once.
    forMs: isEventRuleType(rule.type as AlertRuleType) ? 0 : rule.forSeconds * 1000,
    resolveForMs: rule.resolveForSeconds * 1000,
    renotifyMs: rule.renotifyMinutes * 60_000,
    notifyResolved: rule.notifyResolved,
  };
}

function toSnapshot(row: AlertStateRow | undefined, now: Date): AlertStateSnapshot {
  if (!row) return initialAlertState(now);
  return {
    status: row.status,
    since: row.since,
    breachSince: row.breachSince,
    firingSince: row.firingSince,
    clearSince: row.clearSince,
    lastNotifiedAt: row.lastNotifiedAt,
    dedupKey: row.dedupKey,
    silenced: row.silenced,
    lastValue: row.lastValue,
  };
}

export async function evaluateAlerts(
  deps: EvaluateAlertsDeps,
  input: { now?: Date; shard?: OrgShard | undefined } = {},
): Promise<EvaluationReport> {
  const now = input.now ?? new Date();
  // A sharded run evaluates the rules of its shard's organizations only (see @rpcpulse/db org-shards).
  const inShard = input.shard ? await listOrganizationIdsInShard(deps.sql, input.shard) : null;
  const rules = await listEnabledAlertRules(deps.prisma, inShard ? { organizationIds: [...inShard] } : {});
  const report: EvaluationReport = {
    rules: rules.length,
    targets: 0,
    events: 0,
    silenced: 0,
    deliveries: 0,
    incidentsOpened: 0,
    incidentsResolved: 0,
    errors: 0,
  };
  if (rules.length === 0) return report;
  // The round's three reads depend on the rules only: issued together.
  const [{ byRule }, stateRows, orgs] = await Promise.all([
    collectAlertTargets(deps, rules, now),
    listAlertStatesForRules(
      deps.sql,
      rules.map((r) => r.id),
    ),
    listOrganizationNames(deps.sql, [...new Set(rules.map((r) => r.organizationId))]),
  ]);
  const states = new Map(stateRows.map((s) => [`${s.ruleId}|${s.targetKey}`, s]));
  const failed = (error: unknown) => {
    // One broken target must not stop the round; the next round retries it.
    report.errors++;
    if (report.errors === 1) report.firstError = error instanceof Error ? error.message : String(error);
  };

  // States of targets the rules no longer cover, for every rule of the round in one statement.
  await deleteAlertStatesOutside(deps.sql, {
    ruleIds: rules.map((r) => r.id),
    keep: rules.flatMap((r) => (byRule.get(r.id) ?? []).map((t) => ({ ruleId: r.id, targetKey: t.key }))),
  });
  // States without an event are written together after the loop (an event's state is written with it).
  const quiet: AlertStateRow[] = [];
  for (const rule of rules) {
    // The rule's thresholds are parsed once for all its targets (a bad rule fails each target, as before).
    let spec: EvaluatorRule | { invalid: unknown };
    try {
      spec = evaluatorRule(rule);
    } catch (error) {
      spec = { invalid: error };
    }
    for (const target of byRule.get(rule.id) ?? []) {
      report.targets++;
      try {
        if ("invalid" in spec) throw spec.invalid;
        const prevRow = states.get(`${rule.id}|${target.key}`);
        const result = await evaluateTarget(deps, rule, spec, target, prevRow, now, orgs.get(rule.organizationId));
        if (!result.event) {
          quiet.push(result.state);
          continue;
        }
        report.events++;
        if (result.event.silenced) report.silenced++;
        report.deliveries += result.deliveries;
        report.incidentsOpened += result.incidentOpened ? 1 : 0;
        report.incidentsResolved += result.incidentResolved ? 1 : 0;
      } catch (error) {
        failed(error);
      }
    }
  }
  await saveQuietStates(deps, quiet, failed);
  return report;
}

const STATE_BATCH = 2_000;

/** Write the states of the round's targets without an event; a failed batch is written row by row. */
async function saveQuietStates(
  deps: EvaluateAlertsDeps,
  rows: readonly AlertStateRow[],
  failed: (error: unknown) => void,
): Promise<void> {
  for (let start = 0; start < rows.length; start += STATE_BATCH) {
    const batch = rows.slice(start, start + STATE_BATCH);
    try {
      await saveAlertStates(deps.sql, batch);
    } catch {
      for (const row of batch) await saveAlertState(deps.prisma, row).catch(failed);
    }
  }
}

type TargetResult = { event: null; state: AlertStateRow } | EventResult;

interface EventResult {
  event: AlertStepEvent;
  deliveries: number;
  incidentOpened: boolean;
  incidentResolved: boolean;
}

async function evaluateTarget(
  deps: EvaluateAlertsDeps,
  rule: AlertRuleRow,
  spec: EvaluatorRule,
  target: AlertTarget,
  prevRow: AlertStateRow | undefined,
  now: Date,
  org: { name: string; slug: string } | undefined,
): Promise<TargetResult> {
  const type = rule.type as AlertRuleType;
  const prev = toSnapshot(prevRow, now);
  const ctx = { inMaintenance: false, keyPrefix: `${rule.id}:${target.key}` };
  let step = stepAlert(spec, prev, target.measurement.value, now, ctx);
  // Maintenance is looked up only when it could matter: a notification is due or one was held back.
  if (step.event || prev.silenced) {
    const inMaintenance = await isInMaintenance(deps, {
      organizationId: rule.organizationId,
      componentRef: target.id,
      at: now,
    });
    if (inMaintenance) step = stepAlert(spec, prev, target.measurement.value, now, { ...ctx, inMaintenance });
  }
  const value = target.measurement.value ?? prev.lastValue;
  const summary =
    value === null
      ? "no data"
      : describeCondition({
          type,
          value,
          thresholds: spec,
          blockIntervalMs: target.blockIntervalMs,
          detail: target.measurement.detail,
        });
  const next: AlertStateRow = {
    ruleId: rule.id,
    targetKey: target.key,
    organizationId: rule.organizationId,
    targetName: target.name,
    ...step.state,
    summary,
    evaluatedAt: now,
  };
  const event = step.event;
  if (!event) return { event: null, state: next };

  const episodeStart = prev.breachSince ?? next.breachSince ?? now;
  const describe = (targetName: string, detail: string | undefined) =>
    describeAlertEvent({
      kind: event.kind,
      type,
      value: value ?? 0,
      thresholds: spec,
      blockIntervalMs: target.blockIntervalMs,
      detail,
      targetName,
      ruleName: rule.name,
      heldMs: now.getTime() - episodeStart.getTime(),
    });
  const text = describe(target.name, target.measurement.detail);
  const channels = event.silenced ? [] : await listEnabledChannels(deps.prisma, rule.channelIds);
  const { deliveries } = await saveAlertTransition(deps.prisma, {
    state: next,
    event: {
      organizationId: rule.organizationId,
      ruleId: rule.id,
      targetKey: target.key,
      targetName: target.name,
      kind: event.kind,
      fromStatus: event.from,
      toStatus: event.to,
      value,
      title: text.title,
      body: text.body,
      dedupKey: event.dedupKey,
      silenced: event.silenced,
      createdAt: now,
    },
    deliveriesFor: (row) => {
      const message: NotificationMessage = {
        kind: event.kind,
        title: text.title,
        body: text.body,
        url: deps.appBaseUrl && org ? `${deps.appBaseUrl.replace(/\/+$/, "")}/app/o/${org.slug}/alerts` : undefined,
        fields: [
          { name: "Rule", value: `${rule.name} (${RULE_TYPES[type].label})` },
          { name: "Target", value: target.name },
          {
            name: "Now",
            value: value === null ? "no data" : `${Math.round(value * 10) / 10} ${RULE_TYPES[type].unit}`,
          },
          {
            name: "Since",
            value: `${episodeStart.toISOString()} (${formatDuration(now.getTime() - episodeStart.getTime())})`,
          },
        ],
        eventId: row.id,
        organization: org?.name ?? rule.organizationId,
        occurredAt: now,
      };
      return channels.map((channel) => ({
        organizationId: rule.organizationId,
        channelId: channel.id,
        eventId: row.id,
        purpose: "alert",
        channelType: channel.type,
        target: channel.summary,
        payload: serialiseMessage(message),
        secretEnc: null,
      }));
    },
  });
  // The outbox's second step: a row that is not queued here (crash, Redis away) is queued later by
  // the worker's delivery sweeper.
  if (deliveries.length > 0) deps.afterDeliveriesCommitted?.(deliveries.map((d) => d.id));
  for (const d of deliveries) await queueStoredDelivery(deps, d);

  let incidentOpened = false;
  let incidentResolved = false;
  if (rule.openIncidents) {
    const alertKey = event.dedupKey;
    // The public incident names the component as the status page lists it and leaves out the
    // measurement's detail (a client's IP, private suggestions): the operator's own name for a node and
    // that detail go only to the operator's channels.
    const listed = await listStatusComponentsForRef(deps, {
      organizationId: rule.organizationId,
      componentRef: target.id,
    });
    const publicText = describe(listed[0]?.displayName ?? target.name, undefined);
    if (!event.silenced && (event.kind === "firing" || event.kind === "degraded")) {
      const impact = event.kind === "firing" ? "major" : "minor";
      const opened = await openAutoIncident(deps, {
        organizationId: rule.organizationId,
        componentRef: target.id,
        alertKey,
        title: publicText.title,
        body: publicText.body,
        impact,
        at: now,
      });
      incidentOpened = opened.incidentId !== null && opened.created;
      if (opened.incidentId !== null && !opened.created) {
        await updateAutoIncident(deps, {
          organizationId: rule.organizationId,
          alertKey,
          body: publicText.body,
          impact,
          at: now,
        });
      }
    } else if (event.kind === "resolved") {
      const resolved = await resolveAutoIncident(deps, {
        organizationId: rule.organizationId,
        alertKey,
        body: publicText.body,
        at: now,
      });
      incidentResolved = resolved.incidentId !== null;
    }
  }
  return { event, deliveries: deliveries.length, incidentOpened, incidentResolved };
}
