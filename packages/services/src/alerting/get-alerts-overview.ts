import {
  countOrganizationDeliveries,
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
} from "@rpcpulse/db/alerting";
import { z } from "zod";
import { hasRole, type ServiceContext, type ServiceDeps } from "../context.js";

/** Rows per page of the delivery log. */
export const DELIVERY_PAGE_SIZE = 25;

/** The delivery log's URL params (d-prefixed on the page); junk falls back to "no filter". */
export const DeliveryLogQuery = z.object({
  status: z.enum(["queued", "retrying", "sent", "failed"]).optional().catch(undefined),
  channelId: z.string().max(64).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type DeliveryLogQuery = z.infer<typeof DeliveryLogQuery>;

export interface AlertsOverview {
  canEdit: boolean;
  active: ActiveAlertRow[];
  rules: AlertRuleRow[];
  channels: AlertChannelRow[];
  /** One page of the delivery log after the filter. */
  deliveries: DeliveryLogRow[];
  deliveryQuery: DeliveryLogQuery;
  /** Deliveries matching the filter (all pages). */
  deliveriesTotal: number;
  /** Failed deliveries in the last 24 hours (whatever the filter). */
  failed24h: number;
  events: AlertEventRow[];
  targets: Awaited<ReturnType<typeof listAlertTargetChoices>>;
}

/** Everything the alerts page shows (any member may read it); the delivery log filtered and paged. */
export async function getAlertsOverview(
  deps: ServiceDeps,
  ctx: ServiceContext,
  input: { deliveries?: Record<string, unknown>; now?: Date } = {},
): Promise<AlertsOverview> {
  const organizationId = ctx.organizationId;
  const query = DeliveryLogQuery.parse(input.deliveries ?? {});
  const filter = { organizationId, status: query.status, channelId: query.channelId };
  const since = new Date((input.now ?? new Date()).getTime() - 86_400_000);
  const [active, rules, channels, deliveriesTotal, failed24h, events, targets] = await Promise.all([
    listActiveAlerts(deps.prisma, organizationId),
    listOrganizationAlertRules(deps.prisma, organizationId),
    listOrganizationAlertChannels(deps.prisma, organizationId),
    countOrganizationDeliveries(deps.prisma, filter),
    countOrganizationDeliveries(deps.prisma, { organizationId, status: "failed", createdSince: since }),
    listRecentAlertEvents(deps.prisma, { organizationId, limit: 30 }),
    listAlertTargetChoices(deps.prisma, organizationId),
  ]);
  const pageCount = Math.max(1, Math.ceil(deliveriesTotal / DELIVERY_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const deliveries = await listOrganizationDeliveries(deps.prisma, {
    ...filter,
    limit: DELIVERY_PAGE_SIZE,
    offset: (page - 1) * DELIVERY_PAGE_SIZE,
  });
  return {
    canEdit: hasRole(ctx, "admin"),
    active,
    rules,
    channels,
    deliveries,
    deliveryQuery: { ...query, page },
    deliveriesTotal,
    failed24h,
    events,
    targets,
  };
}
