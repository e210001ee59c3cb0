import type { FleetOverview, FleetQuery, FleetSortKey } from "@rpcpulse/services";
import { formatAgo, formatCount, formatDuration, formatLag, formatMs, UNKNOWN_LAG_TITLE } from "./format.js";
import { PublicHeadCell } from "./public-head.js";

const COLUMNS: { key: FleetSortKey; label: string; numeric?: boolean; title?: string }[] = [
  { key: "name", label: "Node" },
  { key: "status", label: "Status" },
  { key: "network", label: "Network" },
  { key: "client", label: "Client" },
  { key: "lag", label: "Lag", numeric: true, title: "Blocks behind the network head" },
  {
    key: "finality",
    label: "Finality",
    numeric: true,
    title: "Finality lag: head − finalized block (Hive/Steem: last irreversible block)",
  },
  { key: "headAge", label: "Head age", numeric: true },
  {
    key: "publicHead",
    label: "Public head",
    numeric: true,
    title: "Head served at the node's public URL − the node's own head (⚠ behind or failing)",
  },
  { key: "p50", label: "p50", numeric: true, title: "RPC latency, last 15 min" },
  { key: "p95", label: "p95", numeric: true, title: "RPC latency, last 15 min" },
  { key: "connections", label: "Conns", numeric: true, title: "ESTABLISHED TCP connections" },
  { key: "timeWait", label: "TIME_WAIT", numeric: true },
  { key: "lastSeen", label: "Last seen", numeric: true },
  { key: "agent", label: "Agent" },
];

/** URL of the overview with some params changed (undefined removes one). */
export function fleetHref(
  slug: string,
  query: FleetQuery,
  change: Partial<Record<keyof FleetQuery, string | undefined>>,
): string {
  const merged: Record<string, string | undefined> = { ...query, ...change };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(merged)) {
    if (v === undefined || (k === "sort" && v === "name") || (k === "dir" && v === "asc")) continue;
    params.set(k, v);
  }
  const qs = params.toString();
  return `/app/o/${slug}${qs ? `?${qs}` : ""}`;
}

/**
 * Plain anchors, not next/link: a client component per row would add 1,000 client references to
 * the RSC payload (the page must stay fast with 1,000 nodes; see bench/fleet-page.ts).
 */
export function FleetTable({ slug, overview }: { slug: string; overview: FleetOverview }) {
  const { query, rows, now } = overview;
  return (
    <div className="table-scroll">
      <table className="data fleet" data-testid="fleet-table">
        <thead>
          <tr>
            {COLUMNS.map((c) => {
              const active = query.sort === c.key;
              const dir = active && query.dir === "asc" ? "desc" : "asc";
              return (
                <th
                  key={c.key}
                  scope="col"
                  className={c.numeric ? "num" : undefined}
                  title={c.title}
                  aria-sort={active ? (query.dir === "asc" ? "ascending" : "descending") : undefined}
                >
                  <a href={fleetHref(slug, query, { sort: c.key, dir })}>
                    {c.label}
                    {active ? (query.dir === "asc" ? " ▲" : " ▼") : ""}
                  </a>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>
                <a href={`/app/o/${slug}/nodes/${r.id}`}>{r.name}</a>
                {r.region ? <span className="muted small"> {r.region}</span> : null}
              </td>
              <td>
                <span className={`status ${r.status}`}>{r.status}</span>
              </td>
              <td>{r.networkName}</td>
              <td className="mono client" title={`${r.clientName}${r.clientVersion ? ` ${r.clientVersion}` : ""}`}>
                {r.clientName}
                {r.clientVersion ? ` ${r.clientVersion}` : ""}
              </td>
              <td
                className="num"
                title={r.lagBlocks === null && r.lastSeenAt ? UNKNOWN_LAG_TITLE : undefined}
                data-testid="fleet-lag"
              >
                {formatLag(r.lagBlocks, r.lastSeenAt !== null)}
              </td>
              <td className="num">{formatCount(r.finalityLagBlocks)}</td>
              <td className="num">{formatDuration(r.headAgeMs)}</td>
              <td className="num">
                <PublicHeadCell view={r.publicHead} />
              </td>
              <td className="num">{formatMs(r.latencyP50Ms)}</td>
              <td className="num">{formatMs(r.latencyP95Ms)}</td>
              <td className="num">{formatCount(r.connections)}</td>
              <td className="num">{formatCount(r.timeWait)}</td>
              <td className="num">{formatAgo(r.lastSeenAt, now)}</td>
              <td className="mono">{r.agentVersion ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
