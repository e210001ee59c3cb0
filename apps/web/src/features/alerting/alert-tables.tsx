import { DELIVERY_PAGE_SIZE, type AlertsOverview } from "@rpcpulse/services/alerting";
import { DataTable, FilterSelect, Pager, TableSearch } from "@/components/data-table.js";
import { Time } from "@/components/time.js";
import { paginate, parseTableState, searchRows, sortRows, tableHref } from "@/lib/table-query.js";

type Params = Record<string, string | string[] | undefined>;

const ACTIVE_KEYS = ["status", "target", "rule", "summary", "since"] as const;
const ACTIVE_PAGE_SIZE = 50;
const STATUS_ORDER: Record<string, number> = { firing: 0, renotify: 1, degraded: 2, pending: 3 };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The alerts page's URL state: the current-alerts table ("a" prefix: search, status, sort, page)
 * and the delivery log ("d" prefix: status, channel, page; filtered and paged in the database).
 */
export function alertsUrlState(params: Params) {
  return {
    active: {
      ...parseTableState(params, { keys: ACTIVE_KEYS, sort: "status", prefix: "a" }),
      status: one(params.astatus) ?? "",
    },
    deliveries: { status: one(params.dstatus), channelId: one(params.dchannel), page: one(params.dpage) },
    current: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, one(v)])),
  };
}
type UrlState = ReturnType<typeof alertsUrlState>;

export function ActiveAlertsTable(props: { slug: string; view: AlertsOverview; state: UrlState; now: Date }) {
  const { active } = props.state;
  const path = `/app/o/${props.slug}/alerts`;
  const href = (change: Record<string, string | number | undefined>) =>
    tableHref(path, props.state.current, change, { pageKey: "apage", defaults: { asort: "status", adir: "asc" } });
  const matching = searchRows(
    props.view.active.filter((a) => !active.status || a.status === active.status),
    active.q,
    (a) => `${a.targetName} ${a.ruleName} ${a.summary} ${a.status}`,
  );
  const sorted = sortRows(
    matching,
    (a) =>
      active.sort === "status"
        ? (STATUS_ORDER[a.status] ?? 9)
        : active.sort === "target"
          ? a.targetName
          : active.sort === "rule"
            ? a.ruleName
            : active.sort === "summary"
              ? a.summary
              : (a.breachSince ?? a.since).getTime(),
    active.dir,
  );
  const page = paginate(sorted, active.page, ACTIVE_PAGE_SIZE);
  if (props.view.active.length === 0) {
    return (
      <p className="muted" data-testid="no-active">
        Nothing firing. Every rule is ok.
      </p>
    );
  }
  return (
    <>
      <TableSearch
        action={path}
        name="aq"
        value={active.q}
        label="Search alerts"
        placeholder="Target, rule or text"
        keep={{ ...props.state.current, astatus: undefined }}
      >
        <FilterSelect
          id="a-status"
          name="astatus"
          label="Status"
          value={active.status}
          anyLabel="Any status"
          options={["firing", "renotify", "degraded", "pending"]}
        />
      </TableSearch>
      <DataTable
        testId="active-alerts"
        rowCount={page.rows.length}
        empty={<p className="muted">No current alert matches.</p>}
        columns={[
          { key: "status", label: "Status" },
          { key: "target", label: "Target" },
          { key: "rule", label: "Rule" },
          { key: "summary", label: "Now" },
          { key: "since", label: "Since" },
        ]}
        sort={{ key: active.sort, dir: active.dir, href: (asort, adir) => href({ asort, adir }) }}
      >
        {page.rows.map((a) => (
          <tr key={`${a.ruleId}|${a.targetKey}`}>
            <td>
              <span className={`badge status-${a.status}`}>{a.status}</span>
              {a.silenced ? <span className="badge muted-badge">maintenance</span> : null}
            </td>
            <td>{a.targetName}</td>
            <td>{a.ruleName}</td>
            <td>{a.summary}</td>
            <td>
              <Time at={a.breachSince ?? a.since} now={props.now} />
            </td>
          </tr>
        ))}
      </DataTable>
      {page.pageCount > 1 ? <Pager label="Current alerts" {...page} href={(apage) => href({ apage })} /> : null}
    </>
  );
}

export function DeliveryLog(props: { slug: string; view: AlertsOverview; state: UrlState; now: Date }) {
  const { view } = props;
  const q = view.deliveryQuery;
  const path = `/app/o/${props.slug}/alerts`;
  const pageCount = Math.max(1, Math.ceil(view.deliveriesTotal / DELIVERY_PAGE_SIZE));
  const filtered = Boolean(q.status || q.channelId);
  return (
    <>
      <form className="dt-toolbar" method="get" action={path} data-testid="delivery-filters">
        {Object.entries(props.state.current).map(([k, v]) =>
          v === undefined || k.startsWith("d") ? null : <input key={k} type="hidden" name={k} value={v} />,
        )}
        <FilterSelect
          id="d-status"
          name="dstatus"
          label="Delivery status"
          value={q.status}
          anyLabel="Any status"
          options={["sent", "failed", "retrying", "queued"]}
        />
        <FilterSelect
          id="d-channel"
          name="dchannel"
          label="Channel"
          value={q.channelId}
          anyLabel="Any channel"
          options={view.channels.map((c) => ({ value: c.id, label: c.name }))}
        />
        <button type="submit" className="secondary">
          Apply
        </button>
        {filtered ? (
          <a
            href={tableHref(
              path,
              props.state.current,
              { dstatus: undefined, dchannel: undefined },
              { pageKey: "dpage" },
            )}
          >
            Clear
          </a>
        ) : null}
      </form>
      <DataTable
        testId="delivery-log"
        rowCount={view.deliveries.length}
        empty={<p className="muted">{filtered ? "No delivery matches." : "No deliveries yet."}</p>}
        columns={["When", "What", "Channel", "Status", "Attempts", "Response"].map((c) => ({ key: c, label: c }))}
      >
        {view.deliveries.map((d) => (
          <tr key={d.id}>
            <td>
              <Time at={d.createdAt} now={props.now} />
            </td>
            <td>
              {d.eventTitle ? (
                <>
                  <span className={`badge status-${d.eventKind ?? ""}`}>{d.eventKind}</span> {d.eventTitle}
                </>
              ) : (
                <span className="muted">{d.purpose}</span>
              )}
            </td>
            <td>
              {d.channelName ?? d.channelType}
              <div className="mono small muted">{d.target}</div>
            </td>
            <td>
              <span className={`badge delivery-${d.status}`}>{d.status}</span>
            </td>
            <td>{d.attempts}</td>
            <td className="small">
              {d.responseCode ?? ""}
              {d.lastError ? <div className="error-text">{d.lastError}</div> : null}
            </td>
          </tr>
        ))}
      </DataTable>
      {view.deliveriesTotal > 0 ? (
        <Pager
          label="Delivery log"
          testId="delivery-pager"
          page={q.page}
          pageCount={pageCount}
          total={view.deliveriesTotal}
          pageSize={DELIVERY_PAGE_SIZE}
          href={(dpage) => tableHref(path, props.state.current, { dpage }, { pageKey: "dpage" })}
        />
      ) : null}
    </>
  );
}
