/** One evaluation round's reads: targets of every enabled rule and the series they need. */
import { listNodeBeaconLatest, listNodeHeads, type NodeBeaconLatest, type NodePublicHeadRow } from "@rpcpulse/db/fleet";
import {
  listNodeIdsByOrganization,
  readEndpointAlertSnapshots,
  readHighSeveritySuggestions,
  readNodeAlertSnapshots,
  readNodeFinalityStates,
  readNodeLatencyP95,
  readNodeTopRemoteIp,
  type AlertRuleRow,
  type EndpointAlertSnapshot,
  type NodeAlertSnapshot,
  type NodeFinalityState,
} from "@rpcpulse/db/alerting";
import { listProducerMisses, listProducerStatuses } from "@rpcpulse/db/producers";
import { type PrismaClient, type SqlClient } from "@rpcpulse/db/sql";
import { findNetwork } from "@rpcpulse/domain";
import { measureEndpoint, measureNode, type Measurement } from "./measure.js";
import { measureProducer } from "./measure-producers.js";
import { collectValidatorTargets } from "./collect-validator-targets.js";
import { isValidatorRuleType } from "./measure-validators.js";
import { resolveThresholds, type AlertRuleType } from "./rule-params.js";

export interface AlertTarget {
  kind: "node" | "endpoint" | "producer";
  id: string;
  key: string;
  name: string;
  blockIntervalMs: number | null;
  measurement: Measurement;
}

export interface CollectedTargets {
  byRule: Map<string, AlertTarget[]>;
  nodes: number;
  endpoints: number;
}

const MINUTE = 60_000;

/**
 * Samples the finality_stalled rules look back over: twice the largest threshold plus 10 minutes
 * (at most a day), so a stall past the threshold is always measured from inside the window.
 */
function finalityLookbackStart(rules: readonly AlertRuleRow[], now: Date): Date {
  const thresholds = rules
    .filter((r) => r.type === "finality_stalled")
    .map((r) => resolveThresholds("finality_stalled", r.params).threshold);
  const seconds = Math.min(86_400, 2 * Math.max(0, ...thresholds) + 600);
  return new Date(now.getTime() - seconds * 1000);
}

export async function collectAlertTargets(
  deps: { prisma: PrismaClient; sql: SqlClient },
  rules: readonly AlertRuleRow[],
  now: Date,
): Promise<CollectedTargets> {
  const orgWide = [...new Set(rules.filter((r) => r.targetKind === "org_nodes").map((r) => r.organizationId))];
  const orgNodes = await listNodeIdsByOrganization(deps.sql, orgWide);
  const nodeIdsOf = (r: AlertRuleRow): string[] =>
    r.targetKind === "org_nodes"
      ? (orgNodes.get(r.organizationId) ?? [])
      : r.targetKind === "node" && r.nodeId
        ? [r.nodeId]
        : [];

  const nodeRules = rules.filter((r) => r.targetKind === "node" || r.targetKind === "org_nodes");
  const endpointRules = rules.filter((r) => r.targetKind === "endpoint" && r.endpointId);
  const nodeIds = [...new Set(nodeRules.flatMap(nodeIdsOf))];
  const snapshots = new Map((await readNodeAlertSnapshots(deps.sql, nodeIds)).map((n) => [n.nodeId, n]));

  const windowOf = (r: AlertRuleRow) => resolveThresholds(r.type as AlertRuleType, r.params).windowMinutes;
  const latencyWindows = [...new Set(nodeRules.filter((r) => r.type === "latency_p95").map(windowOf))];
  const latency = new Map<number, Awaited<ReturnType<typeof readNodeLatencyP95>>>();
  for (const w of latencyWindows) {
    latency.set(w, await readNodeLatencyP95(deps.sql, { nodeIds, since: new Date(now.getTime() - w * MINUTE) }));
  }
  const topIps = nodeRules.some((r) => r.type === "connection_flood")
    ? await readNodeTopRemoteIp(deps.sql, nodeIds)
    : new Map<string, { ip: string; conns: number }>();
  const finality = nodeRules.some((r) => r.type === "finality_stalled")
    ? await readNodeFinalityStates(deps.sql, { nodeIds, since: finalityLookbackStart(nodeRules, now) })
    : new Map<string, NodeFinalityState>();
  const publicHeads = nodeRules.some((r) => r.type === "public_head_behind")
    ? new Map((await listNodeHeads(deps.sql, nodeIds)).map((h) => [h.nodeId, h.publicHead]))
    : new Map<string, NodePublicHeadRow | null>();
  const beacons = nodeRules.some((r) => r.type === "consensus_client_behind")
    ? new Map((await listNodeBeaconLatest(deps.sql, nodeIds)).map((b) => [b.nodeId, b]))
    : new Map<string, NodeBeaconLatest>();
  const suggestions = nodeRules.some((r) => r.type === "suggestion")
    ? await readHighSeveritySuggestions(deps.sql, nodeIds)
    : new Map<string, { open: number; title: string | null }>();

  const endpointWindows = new Map<number, Map<string, EndpointAlertSnapshot>>();
  for (const w of new Set(endpointRules.map(windowOf))) {
    const ids = [...new Set(endpointRules.filter((r) => windowOf(r) === w).map((r) => r.endpointId as string))];
    const rows = await readEndpointAlertSnapshots(deps.sql, {
      endpointIds: ids,
      since: new Date(now.getTime() - w * MINUTE),
    });
    endpointWindows.set(w, new Map(rows.map((e) => [e.endpointId, e])));
  }

  const byRule = new Map<string, AlertTarget[]>();
  for (const rule of nodeRules) {
    const type = rule.type as AlertRuleType;
    // The rule's latency series, looked up at its first measured node (once, not per node).
    let latencyOfRule: { series: ReturnType<typeof latency.get> } | null = null;
    const targets: AlertTarget[] = [];
    for (const id of nodeIdsOf(rule)) {
      const node: NodeAlertSnapshot | undefined = snapshots.get(id);
      if (!node || node.organizationId !== rule.organizationId) continue;
      const measurement = measureNode(
        type,
        node,
        {
          latencyP95: (latencyOfRule ??= { series: latency.get(windowOf(rule)) }).series?.get(id),
          topRemoteIp: topIps.get(id),
          suggestions: suggestions.get(id),
          finality: finality.get(id),
          publicHead: publicHeads.get(id),
          beacon: beacons.get(id),
        },
        now,
      );
      targets.push({
        kind: "node",
        id,
        key: `node:${id}`,
        name: node.name,
        blockIntervalMs: node.blockIntervalMs,
        measurement,
      });
    }
    byRule.set(rule.id, targets);
  }
  for (const rule of endpointRules) {
    const id = rule.endpointId as string;
    const endpoint = endpointWindows.get(windowOf(rule))?.get(id);
    if (!endpoint) {
      byRule.set(rule.id, []);
      continue;
    }
    byRule.set(rule.id, [
      {
        kind: "endpoint",
        id,
        key: `endpoint:${id}`,
        name: endpoint.name,
        blockIntervalMs: endpoint.blockIntervalMs,
        measurement: measureEndpoint(rule.type as AlertRuleType, endpoint),
      },
    ]);
  }
  await collectProducerTargets(deps, rules, now, byRule);
  return { byRule, nodes: snapshots.size, endpoints: new Set(endpointRules.map((r) => r.endpointId)).size };
}

/** Rules over an organization's producers (witnesses): one target per registered producer. */
async function collectProducerTargets(
  deps: { sql: SqlClient },
  rules: readonly AlertRuleRow[],
  now: Date,
  byRule: Map<string, AlertTarget[]>,
): Promise<void> {
  const allProducerRules = rules.filter((r) => r.targetKind === "org_producers");
  const validatorRules = allProducerRules.filter((r) => isValidatorRuleType(r.type as AlertRuleType));
  for (const [ruleId, targets] of await collectValidatorTargets(deps, validatorRules, now)) byRule.set(ruleId, targets);
  const producerRules = allProducerRules.filter((r) => !isValidatorRuleType(r.type as AlertRuleType));
  if (producerRules.length === 0) return;
  const producers = await listProducerStatuses(deps.sql, {
    organizationIds: [...new Set(producerRules.map((r) => r.organizationId))],
    kind: "witness",
  });
  const windowOf = (r: AlertRuleRow) => resolveThresholds(r.type as AlertRuleType, r.params).windowMinutes;
  const longest = Math.max(0, ...producerRules.map(windowOf));
  const misses = await listProducerMisses(deps.sql, {
    producerIds: producers.map((p) => p.id),
    since: new Date(now.getTime() - longest * MINUTE),
    limit: 50,
  });
  for (const rule of producerRules) {
    byRule.set(
      rule.id,
      producers
        .filter((p) => p.organizationId === rule.organizationId)
        .map((p) => ({
          kind: "producer" as const,
          id: p.id,
          key: `producer:${p.id}`,
          name: `@${p.account} (${p.network})`,
          blockIntervalMs: findNetwork(p.network)?.blockIntervalMs ?? null,
          measurement: measureProducer(rule.type as AlertRuleType, p, misses, { minutes: windowOf(rule) }, now),
        })),
    );
  }
}
