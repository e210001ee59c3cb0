import type { PublicComponent, PublicStatusPage } from "@rpcpulse/services/status";
import { LineChart } from "@/features/directory/line-chart.js";
import { formatUptime, OVERALL_TEXT, stateLabel } from "./format.js";
import { IncidentList, MaintenanceList } from "./incident-list.js";
import { SUBSCRIPTION_NOTICE, subscriptionNoticeKey } from "./subscription-notice.js";
import { indexDayIncidents, Sparkline, UptimeBars } from "./uptime-bars.js";
import { ConsensusFacts } from "./consensus-status.js";
import { ProducerFacts } from "./producer-status.js";
import { UptimeTooltip } from "./uptime-tooltip.js";
import { LocalTime } from "@/components/display-prefs.js";

function meanAt(
  components: PublicComponent[],
  i: number,
  pick: (c: PublicComponent) => (number | null)[],
): number | null {
  const values = components.map((c) => pick(c)[i] ?? null).filter((v): v is number => v !== null);
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

function maxAt(
  components: PublicComponent[],
  i: number,
  pick: (c: PublicComponent) => (number | null)[] = (c) => c.lagBlocks,
): number | null {
  const values = components.map((c) => pick(c)[i] ?? null).filter((v): v is number => v !== null);
  return values.length === 0 ? null : Math.max(...values);
}

function formatBlocksBehind(value: number): string {
  const n = Math.round(value);
  return `${n} ${n === 1 ? "block" : "blocks"} behind`;
}

function formatMs(value: number): string {
  return `${Math.round(value)} ms`;
}

export function PublicStatusView(props: {
  snapshot: PublicStatusPage;
  basePath: string;
  subscription?: string | undefined;
}) {
  const { snapshot, basePath } = props;
  const names = new Map(snapshot.components.map((c) => [c.id, c.name]));
  const times = snapshot.hours.map((h) => h * 1000);
  const endpoints = snapshot.components.filter((c) => c.kind === "endpoint");
  const nodes = snapshot.components.filter((c) => c.kind === "node");
  const upcoming = snapshot.maintenance;
  const noticeKey = subscriptionNoticeKey(props.subscription);
  const notice = noticeKey ? SUBSCRIPTION_NOTICE[noticeKey] : undefined;
  const base = basePath || "";
  const dayIncidents = indexDayIncidents(snapshot.components);
  return (
    <div className={`sp theme-${snapshot.page.theme}`}>
      <header className="sp-head">
        <h1>{snapshot.page.title}</h1>
        {snapshot.page.description ? <p className="muted">{snapshot.page.description}</p> : null}
        <p className={`sp-overall st-${snapshot.overall}`} role="status">
          {OVERALL_TEXT[snapshot.overall]}
        </p>
      </header>

      {snapshot.activeIncidents.length > 0 ? (
        <section className="card" aria-labelledby="active-title">
          <h2 id="active-title">Active incidents</h2>
          <IncidentList incidents={snapshot.activeIncidents} names={names} emptyText="" />
        </section>
      ) : null}

      {upcoming.length > 0 ? (
        <section className="card" aria-labelledby="maintenance-title">
          <h2 id="maintenance-title">Scheduled maintenance</h2>
          <MaintenanceList windows={upcoming} names={names} />
        </section>
      ) : null}

      {snapshot.groups.map((g) => (
        <section className="card sp-group" key={g.id ?? "ungrouped"} aria-label={g.name || "Components"}>
          {g.name ? <h2>{g.name}</h2> : null}
          <ul className="sp-components">
            {g.components.map((c) => (
              <li key={c.id} className="sp-component" data-component={c.id}>
                <div className="sp-row">
                  <span className="sp-name">
                    {c.name}
                    <span className="muted small"> · {c.network}</span>
                    {c.kind === "node" && c.finalityLagBlocks !== null ? (
                      <span className="muted small" title="Blocks not yet final: head − finalized block">
                        {" "}
                        · finality lag {Math.round(c.finalityLagBlocks).toLocaleString("en-US")}
                      </span>
                    ) : null}
                  </span>
                  {c.kind === "producer" || c.kind === "consensus_client" ? null : (
                    <Sparkline
                      values={c.kind === "node" ? c.lagBlocks : c.responseMs}
                      label={c.kind === "node" ? `${c.name} lag (blocks)` : `${c.name} response time`}
                      format={c.kind === "node" ? formatBlocksBehind : formatMs}
                    />
                  )}
                  <span className={`sp-pill st-${c.state}`}>{stateLabel(c.state)}</span>
                </div>
                {c.description ? <p className="small muted">{c.description}</p> : null}
                {c.producer ? <ProducerFacts producer={c.producer} /> : null}
                {c.kind === "consensus_client" ? <ConsensusFacts consensus={c.consensus ?? null} /> : null}
                <UptimeBars component={c} incidentIndex={dayIncidents.index} />
                <div className="sp-bars-legend small muted">
                  <span>90 days ago</span>
                  <span>{formatUptime(c.uptime90)} uptime</span>
                  <span>Today</span>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ))}

      <section className="card sp-charts" aria-labelledby="charts-title">
        <h2 id="charts-title">Last 24 hours</h2>
        <div className="sp-chart-grid">
          <LineChart
            id="sp-response"
            title="Response time (mean, ms)"
            times={times}
            series={[
              ...(endpoints.length > 0
                ? [
                    {
                      label: "Endpoints (probes)",
                      tone: "a" as const,
                      values: times.map((_, i) => meanAt(endpoints, i, (c) => c.responseMs)),
                    },
                  ]
                : []),
              ...(nodes.length > 0
                ? [
                    {
                      label: "Nodes (local RPC)",
                      tone: "b" as const,
                      values: times.map((_, i) => meanAt(nodes, i, (c) => c.responseMs)),
                    },
                  ]
                : []),
            ]}
            format={(v) => `${Math.round(v)} ms`}
            emptyText="No response times in the last 24 hours."
          />
          <LineChart
            id="sp-lag"
            title="Lag behind the network head (worst node, blocks)"
            times={times}
            series={
              nodes.length > 0
                ? [{ label: "Lag", tone: "c" as const, values: times.map((_, i) => maxAt(nodes, i)) }]
                : []
            }
            format={(v) => `${Math.round(v)}`}
            emptyText="No node lag data in the last 24 hours."
          />
          {nodes.some((c) => c.finalityLag.some((v) => v !== null)) ? (
            <LineChart
              id="sp-finality"
              title="Finality lag: blocks not yet final (worst node)"
              times={times}
              series={[
                {
                  label: "Finality lag",
                  tone: "b" as const,
                  values: times.map((_, i) => maxAt(nodes, i, (c) => c.finalityLag)),
                },
              ]}
              format={(v) => `${Math.round(v)}`}
              emptyText="No finality data in the last 24 hours."
            />
          ) : null}
        </div>
      </section>

      <section className="card" aria-labelledby="past-title">
        <h2 id="past-title">Past incidents</h2>
        <IncidentList incidents={snapshot.pastIncidents} names={names} emptyText="No incidents in the last 90 days." />
      </section>

      <section className="card sp-subscribe" id="subscribe" aria-labelledby="subscribe-title">
        <h2 id="subscribe-title">Get updates</h2>
        {notice ? <p className="notice">{notice}</p> : null}
        <form method="post" action={`${base}/subscription`} className="sp-subscribe-form">
          <label>
            <span className="sr-only">Deliver by</span>
            <select name="kind" defaultValue="email">
              <option value="email">Email</option>
              <option value="webhook">Webhook (https)</option>
            </select>
          </label>
          <label className="grow">
            <span className="sr-only">Email address or webhook URL</span>
            <input name="target" required maxLength={2048} placeholder="you@example.org or https://…" />
          </label>
          <button type="submit" className="button">
            Subscribe
          </button>
        </form>
        <p className="small muted">
          Feeds: <a href={`${base}/rss`}>RSS</a> · <a href={`${base}/atom`}>Atom</a> ·{" "}
          <a href={`${base}/feed.json`}>JSON Feed</a> · <a href={`${base}/summary.json`}>Status JSON</a> · Badge:{" "}
          <a href={`${base}/badge/page.svg`}>SVG</a>
        </p>
        <p className="small muted">
          Updated <LocalTime at={snapshot.generatedAt.toISOString()} /> · refreshed every 30 seconds.
        </p>
      </section>
      <UptimeTooltip incidentTitles={dayIncidents.titles} />
    </div>
  );
}
