import type { Metadata } from "next";
import Link from "next/link";
import { getAlertsOverview, RULE_TYPES, resolveThresholds, type AlertRuleType } from "@rpcpulse/services/alerting";
import { AppShell } from "@/components/app-shell.js";
import { ActionButton } from "@/features/alerting/action-button.js";
import { DataTable, NameCell } from "@/features/alerting/data-table.js";
import {
  deleteChannelAction,
  deleteRuleAction,
  testChannelAction,
  toggleChannelAction,
  toggleRuleAction,
} from "@/features/alerting/actions.js";
import { ActiveAlertsTable, alertsUrlState, DeliveryLog } from "@/features/alerting/alert-tables.js";
import { ChannelForm } from "@/features/alerting/channel-form.js";
import { EventsChart } from "@/features/alerting/events-chart.js";
import { RuleForm, type RuleFormValues, type RuleTypeOption } from "@/features/alerting/rule-form.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { getRuntime } from "@/server/runtime.js";
import { requireOrgContext } from "@/server/session.js";
import "@/features/alerting/alerts.css";

export const metadata: Metadata = { title: "Alerts" };
export const dynamic = "force-dynamic";

const TYPE_OPTIONS: RuleTypeOption[] = (Object.keys(RULE_TYPES) as AlertRuleType[]).map((value) => {
  const t = RULE_TYPES[value];
  return {
    value,
    label: t.label,
    unit: t.unit,
    targets: t.targets,
    threshold: t.defaults.threshold,
    degraded: t.defaults.degraded,
    windowMinutes: t.defaults.windowMinutes,
    help: t.help,
  };
});

const NEW_RULE: RuleFormValues = {
  name: "",
  type: "lag",
  target: "org",
  threshold: String(RULE_TYPES.lag.defaults.threshold),
  degraded: String(RULE_TYPES.lag.defaults.degraded ?? ""),
  resolveBelow: "",
  windowMinutes: "0",
  forSeconds: "120",
  resolveForSeconds: "120",
  renotifyMinutes: "0",
  notifyResolved: true,
  openIncidents: true,
  enabled: true,
  channelIds: [],
};

export default async function AlertsPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug } = await params;
  const query = await searchParams;
  const edit = typeof query.edit === "string" ? query.edit : undefined;
  const urlState = alertsUrlState(query);
  const now = new Date();
  const { session, ctx } = await requireOrgContext(slug);
  const [orgs, view] = await Promise.all([
    getUserOrganizations(session.userId),
    getAlertsOverview({ prisma: getRuntime().prisma }, ctx, { deliveries: urlState.deliveries, now }),
  ]);
  const s = ctx.organizationSlug;
  const channelName = new Map(view.channels.map((c) => [c.id, c.name]));
  const editing = edit ? view.rules.find((r) => r.id === edit) : undefined;
  const formInitial: RuleFormValues = editing
    ? (() => {
        const t = resolveThresholds(editing.type as AlertRuleType, editing.params);
        const raw = editing.params as { resolveBelow?: number | null };
        return {
          ruleId: editing.id,
          name: editing.name,
          type: editing.type,
          target:
            editing.targetKind === "org_nodes" || editing.targetKind === "org_producers"
              ? "org"
              : editing.nodeId
                ? `node:${editing.nodeId}`
                : `endpoint:${editing.endpointId}`,
          threshold: String(t.threshold),
          degraded: t.degraded === null ? "" : String(t.degraded),
          resolveBelow: raw.resolveBelow == null ? "" : String(raw.resolveBelow),
          windowMinutes: String(t.windowMinutes),
          forSeconds: String(editing.forSeconds),
          resolveForSeconds: String(editing.resolveForSeconds),
          renotifyMinutes: String(editing.renotifyMinutes),
          notifyResolved: editing.notifyResolved,
          openIncidents: editing.openIncidents,
          enabled: editing.enabled,
          channelIds: editing.channelIds,
        };
      })()
    : NEW_RULE;
  const count = (st: string) => view.active.filter((a) => a.status === st).length;
  const failed24h = view.failed24h;

  return (
    <AppShell user={session} orgs={orgs} currentSlug={s} active="alerts">
      <div className="page-head">
        <div>
          <h1>Alerts</h1>
          <p>Rules over agent telemetry and probes; notifications by email, webhook, Slack, Discord and Telegram.</p>
        </div>
      </div>

      <div className="alert-tiles">
        <div className={`alert-tile ${count("firing") ? "bad" : "good"}`} data-testid="tile-firing">
          <strong>{count("firing")}</strong> firing
        </div>
        <div className={`alert-tile ${count("degraded") ? "warn" : "good"}`}>
          <strong>{count("degraded")}</strong> degraded
        </div>
        <div className="alert-tile">
          <strong>{count("pending")}</strong> pending
        </div>
        <div className="alert-tile">
          <strong>{view.rules.filter((r) => r.enabled).length}</strong> of {view.rules.length} rules on
        </div>
        <div className={`alert-tile ${failed24h ? "warn" : ""}`}>
          <strong>{failed24h}</strong> failed deliveries (24 h)
        </div>
      </div>

      <section className="card" aria-labelledby="active-title">
        <h2 id="active-title">Current alerts</h2>
        <ActiveAlertsTable slug={s} view={view} state={urlState} now={now} />
        <h3 className="small muted">Notifications in the last 24 hours</h3>
        <EventsChart events={view.events} now={now} />
      </section>

      <section className="card" aria-labelledby="rules-title">
        <h2 id="rules-title">Rules</h2>
        <DataTable
          testId="rules"
          columns={["Name", "Condition", "Target", "Timing", "Channels"]}
          actions={view.canEdit}
          empty={view.rules.length === 0}
          emptyText="No rules yet."
        >
          {view.rules.map((r) => {
            const info = RULE_TYPES[r.type as AlertRuleType];
            const t = resolveThresholds(r.type as AlertRuleType, r.params);
            return (
              <tr key={r.id} className={r.enabled ? undefined : "disabled-row"}>
                <NameCell name={r.name} enabled={r.enabled} />
                <td>
                  {info.label}: ≥ {t.threshold} {info.unit}
                  {t.degraded !== null ? <span className="muted small"> · degraded ≥ {t.degraded}</span> : null}
                  <span className="muted small"> · resolves &lt; {t.resolveBelow}</span>
                </td>
                <td>
                  {r.targetKind === "org_nodes"
                    ? "All nodes"
                    : r.targetKind === "org_producers"
                      ? "All witnesses"
                      : (r.targetName ?? "—")}
                </td>
                <td className="small">
                  for {r.forSeconds} s · resolve {r.resolveForSeconds} s
                  {r.renotifyMinutes ? ` · every ${r.renotifyMinutes} min` : ""}
                </td>
                <td className="small">{r.channelIds.map((id) => channelName.get(id) ?? "?").join(", ") || "—"}</td>
                {view.canEdit ? (
                  <td className="actions">
                    <Link href={`/app/o/${s}/alerts?edit=${r.id}#rule-editor`} className="button small">
                      Edit
                    </Link>
                    <ActionButton
                      action={toggleRuleAction}
                      fields={{ slug: s, ruleId: r.id, enabled: r.enabled ? "false" : "true" }}
                      label={r.enabled ? "Disable" : "Enable"}
                    />
                    <ActionButton
                      action={deleteRuleAction}
                      fields={{ slug: s, ruleId: r.id }}
                      label="Delete"
                      className="small danger"
                      confirm={`Delete the rule "${r.name}"?`}
                    />
                  </td>
                ) : null}
              </tr>
            );
          })}
        </DataTable>
        {view.canEdit ? (
          <div className="editor" id="rule-editor">
            <h3>{editing ? `Edit "${editing.name}"` : "New rule"}</h3>
            <RuleForm
              key={editing?.id ?? "new"}
              slug={s}
              types={TYPE_OPTIONS}
              nodes={view.targets.nodes}
              endpoints={view.targets.endpoints}
              channels={view.channels.map((c) => ({ id: c.id, name: c.name, type: c.type }))}
              initial={formInitial}
            />
          </div>
        ) : (
          <p className="muted small">Viewers can read rules; admins and owners change them.</p>
        )}
      </section>

      <section className="card" aria-labelledby="channels-title">
        <h2 id="channels-title">Channels</h2>
        <DataTable
          testId="channels"
          columns={["Name", "Type", "Destination"]}
          actions={view.canEdit}
          empty={view.channels.length === 0}
          emptyText="No channels yet."
        >
          {view.channels.map((c) => (
            <tr key={c.id} className={c.enabled ? undefined : "disabled-row"}>
              <NameCell name={c.name} enabled={c.enabled} />
              <td>
                <span className="badge">{c.type}</span>
              </td>
              <td className="mono small">{c.summary}</td>
              {view.canEdit ? (
                <td className="actions">
                  <ActionButton
                    action={testChannelAction}
                    fields={{ slug: s, channelId: c.id }}
                    label="Test"
                    pendingText="Queuing…"
                    testId={`test-${c.name}`}
                  />
                  <ActionButton
                    action={toggleChannelAction}
                    fields={{ slug: s, channelId: c.id, enabled: c.enabled ? "false" : "true" }}
                    label={c.enabled ? "Disable" : "Enable"}
                  />
                  <ActionButton
                    action={deleteChannelAction}
                    fields={{ slug: s, channelId: c.id }}
                    label="Delete"
                    className="small danger"
                    confirm={`Delete the channel "${c.name}"? Rules stop notifying it.`}
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
        {view.canEdit ? (
          <div className="editor">
            <h3>New channel</h3>
            <ChannelForm slug={s} />
          </div>
        ) : null}
      </section>

      <section className="card" aria-labelledby="log-title">
        <h2 id="log-title">Delivery log</h2>
        <DeliveryLog slug={s} view={view} state={urlState} now={now} />
      </section>
    </AppShell>
  );
}
