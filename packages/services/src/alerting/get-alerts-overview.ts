import {
  listActiveAlerts,
  listAlertTargetChoices,
  listOrganizationAlertChannels,
  listOrganizationAlertRules,
  listOrganizationDeliveries,
  listRecentAlertEvents,
  type ActiveAlertRow,
  type AlertChannelRow,
  type AlertEventRow,
  type AlertRuleRow,
  type DeliveryLogRow,
} from "@rpcpulse/db";
import { hasRole, type ServiceContext, type ServiceDeps } from "../context.js";

export interface AlertsOverview {
  canEdit: boolean;
  active: ActiveAlertRow[];
  rules: AlertRuleRow[];
  channels: AlertChannelRow[];
  deliveries: DeliveryLogRow[];
  events: AlertEventRow[];
  targets: Awaited<ReturnType<typeof listAlertTargetChoices>>;
}

/** Everything the alerts page shows (any member may read it). */
export async function getAlertsOverview(deps: ServiceDeps, ctx: ServiceContext): Promise<AlertsOverview> {
  const organizationId = ctx.organizationId;
  const [active, rules, channels, deliveries, events, targets] = await Promise.all([
    listActiveAlerts(deps.prisma, organizationId),
    listOrganizationAlertRules(deps.prisma, organizationId),
    listOrganizationAlertChannels(deps.prisma, organizationId),
    listOrganizationDeliveries(deps.prisma, { organizationId, limit: 50 }),
    listRecentAlertEvents(deps.prisma, { organizationId, limit: 30 }),
    listAlertTargetChoices(deps.prisma, organizationId),
  ]);
  return { canEdit: hasRole(ctx, "admin"), active, rules, channels, deliveries, events, targets };
}
