import {
  FLEET_PAGE_SIZE,
  type ConsensusClientView,
  type FleetOverview,
  type FleetQuery,
  type FleetSortKey,
} from "@rpcpulse/services/fleet";
import { DataTable, Pager, type DataColumn } from "@/components/data-table.js";
import { tableHref } from "@/lib/table-query.js";
import { formatAgo, formatDuration } from "@/lib/format.js";
import { formatCount, formatLag, formatMs, UNKNOWN_LAG_TITLE } from "./format.js";
import { ConsensusClientCell } from "./consensus-client-panel.js";
import { PublicHeadCell } from "./public-head.js";

const COLUMNS: (DataColumn & { key: FleetSortKey })[] = [
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

/** URL of the overview with some params changed (undefined removes one; any change but the page goes to page 1). */
export function fleetHref(
  slug: string,
  query: FleetQuery,
  change: Partial<Record<keyof FleetQuery, string | number | undefined>>,
): string {
  return tableHref(`/app/o/${slug}`, query, change, { defaults: { sort: "name", dir: "asc" } });
}

/**
 * Plain anchors, not next/link: a client component per row would add 1,000 client references to
 * the RSC payload (the page must stay fast with 1,000 nodes; see bench/fleet-page.ts).
 */
export function FleetTable({
  slug,
  overview,
  consensus,
}: {
  slug: string;
  overview: FleetOverview;
  /** Ethereum nodes' consensus clients (agent --beacon-url), shown under the execution client. */
  consensus?: ReadonlyMap<string, ConsensusClientView>;
}) {
  const { query, rows, now } = overview;
  return (
    <>
      <DataTable
        columns={COLUMNS}
        className="fleet"
        testId="fleet-table"
        rowCount={rows.length}
        sort={{ key: query.sort, dir: query.dir, href: (key, dir) => fleetHref(slug, query, { sort: key, dir }) }}
      >
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
              {consensus?.has(r.id) ? (
                <span className="cl-line small" data-testid="fleet-cl">
                  CL {(consensus.get(r.id)!.version ?? "").split("/")[0] || "?"}:{" "}
                  <ConsensusClientCell view={consensus.get(r.id)} />
                </span>
              ) : null}
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
      </DataTable>
      <Pager
        label="Nodes"
        testId="fleet-pager"
        page={query.page}
        pageCount={overview.pageCount}
        total={overview.matched}
        pageSize={FLEET_PAGE_SIZE}
        href={(page) => fleetHref(slug, query, { page })}
      />
    </>
  );
}
