import { AppError } from "@rpcpulse/config";
import { findOrganizationOwner } from "@rpcpulse/db/orgs";
import { listOrganizationAlertChannels, listOrganizationAlertRules } from "@rpcpulse/db/alerting";
import type { ServiceContext } from "../context.js";
import type { AlertingDeps } from "./alerting-deps.js";
import { createAlertChannel } from "./channels/create-alert-channel.js";
import { createAlertRule } from "./rules/create-alert-rule.js";

export interface SeededDemoAlerts {
  channels: string[];
  rules: string[];
  /** The webhook signing secret when the channel was created now (the demo receiver verifies with it). */
  signingSecret: string | null;
}

/**
 * Demo only: a signed webhook channel to the local demo receiver and rules that the demo fleet
 * trips for real (hive-lagging lags 25 blocks, eth-stalled stops, hive-api gets a flood from one
 * address). Idempotent: existing names are kept.
 */
export async function seedDemoAlerts(
  deps: Pick<AlertingDeps, "prisma" | "secretsKey">,
  input: { organizationSlug: string; webhookUrl: string },
): Promise<SeededDemoAlerts> {
  const owner = await findOrganizationOwner(deps.prisma, input.organizationSlug);
  if (!owner) throw new AppError("NOT_FOUND", `Organization ${input.organizationSlug} does not exist yet.`);
  const ctx: ServiceContext = { ...owner, role: "owner" };
  const org = { id: owner.organizationId };
  const seeded: SeededDemoAlerts = { channels: [], rules: [], signingSecret: null };

  let channels = await listOrganizationAlertChannels(deps.prisma, org.id);
  if (!channels.some((c) => c.name === "Demo webhook")) {
    const created = await createAlertChannel(deps, ctx, {
      name: "Demo webhook",
      type: "webhook",
      url: input.webhookUrl,
    });
    seeded.channels.push(created.channel.name);
    seeded.signingSecret = created.signingSecret;
    channels = await listOrganizationAlertChannels(deps.prisma, org.id);
  }
  const channelIds = channels.filter((c) => c.name === "Demo webhook").map((c) => c.id);
  const existing = new Set((await listOrganizationAlertRules(deps.prisma, org.id)).map((r) => r.name));
  const rules = [
    { name: "Node down", type: "node_down", target: "org", threshold: 90, forSeconds: 0, resolveForSeconds: 30 },
    {
      name: "Lag behind the network",
      type: "lag",
      target: "org",
      threshold: 10,
      degraded: 3,
      forSeconds: 60,
      resolveForSeconds: 60,
    },
    {
      name: "Stalled head",
      type: "head_age",
      target: "org",
      threshold: 60,
      degraded: 30,
      forSeconds: 30,
      resolveForSeconds: 30,
    },
    {
      name: "One IP floods a node",
      type: "connection_flood",
      target: "org",
      threshold: 100,
      degraded: 50,
      forSeconds: 60,
      resolveForSeconds: 120,
    },
    // The demo's witness (packages/simnet/demo.json) misses a block every 20 minutes; its feed is 30 h old.
    {
      name: "Witness missed a block",
      type: "witness_missed_block",
      target: "org",
      forSeconds: 0,
      resolveForSeconds: 0,
    },
    {
      name: "Witness feed stale",
      type: "witness_feed_stale",
      target: "org",
      threshold: 24,
      degraded: 12,
      forSeconds: 0,
      resolveForSeconds: 60,
    },
    // The demo's validator (packages/simnet/demo.json) is offline: reported every session, points far below the median.
    {
      name: "Validator reported offline",
      type: "validator_offline_report",
      target: "org",
      forSeconds: 0,
      resolveForSeconds: 0,
    },
    {
      name: "Validator era points low",
      type: "validator_low_era_points",
      target: "org",
      threshold: 50,
      degraded: 30,
      forSeconds: 60,
      resolveForSeconds: 60,
    },
    {
      name: "Validator left the active set",
      type: "validator_left_active_set",
      target: "org",
      forSeconds: 0,
      resolveForSeconds: 60,
    },
    // The demo's eth-stalled has a stuck consensus client (packages/simnet/demo.json): it falls further behind each slot.
    {
      name: "Consensus client behind",
      type: "consensus_client_behind",
      target: "org",
      threshold: 8,
      degraded: 4,
      forSeconds: 0,
      resolveForSeconds: 60,
    },
    {
      name: "Ports running out",
      type: "port_exhaustion",
      target: "org",
      threshold: 80,
      degraded: 60,
      forSeconds: 120,
      resolveForSeconds: 120,
    },
  ];
  for (const rule of rules) {
    if (existing.has(rule.name)) continue;
    await createAlertRule(deps, ctx, { ...rule, renotifyMinutes: 60, channelIds });
    seeded.rules.push(rule.name);
  }
  return seeded;
}
