import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { isAppError } from "@rpcpulse/config";
import {
  DIRECTORY_CAPABILITIES,
  DirectoryWindow,
  listDirectoryChains,
  listRankedEndpoints,
} from "@rpcpulse/services/directory";
import { CopyButtons } from "@/features/directory/copy-buttons.js";

import { loadRegionLatency, toRankedRows } from "@/features/directory/ranked-rows.js";
import { RankedTable } from "@/features/directory/ranked-table.js";
import { rankedSearchText, rankedSortValue } from "@/features/directory/view-model.js";
import { searchRows, sortRows, tableHref } from "@/lib/table-query.js";
import { STATUS_TEXT, StatusMark } from "@/features/directory/status-mark.js";
import { getRuntime } from "@/server/runtime.js";
import { CAPABILITY_LABELS, DirectorySearch, toQuery } from "./search-params.js";
import { Time } from "@/components/time.js";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ network: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { network } = await props.params;
  return {
    title: `Public ${network} RPC endpoints, ranked`,
    description: `Public ${network} RPC endpoints ranked by availability, latency, lag and capabilities, probed continuously.`,
  };
}

export default async function RankedPage(props: Props) {
  const { network } = await props.params;
  const search = DirectorySearch.parse(await props.searchParams);
  const deps = { sql: getRuntime().reads.sql };
  let list;
  try {
    list = await listRankedEndpoints(deps, {
      network,
      region: search.region,
      capabilities: search.cap,
      minScore: search.min,
      window: search.window,
    });
  } catch (error) {
    if (isAppError(error) && (error.code === "NOT_FOUND" || error.code === "VALIDATION")) notFound();
    throw error;
  }
  const [chains, regional] = await Promise.all([listDirectoryChains(deps), loadRegionLatency(deps, list, search)]);
  const chain = chains.chains.find((c) => c.network === network);
  const ranked = toRankedRows(list.endpoints, regional);
  const found = searchRows(ranked, search.q, rankedSearchText);
  const rows =
    search.sort === "rank" && search.dir === "asc"
      ? found
      : sortRows(found, (r) => rankedSortValue(r, search.sort), search.dir);
  const pageHref = (change: Record<string, string | undefined>) =>
    tableHref(`/directory/${network}`, { ...search, min: search.min || undefined }, change, {
      defaults: { region: "all", window: "24h", sort: "rank", dir: "asc" },
    });
  const apiHref = `/api/v1/chains/${encodeURIComponent(network)}/endpoints${toQuery(search)}`;
  const filtered = search.cap.length > 0 || search.min > 0 || search.q !== "";
  const dead = rows.filter((r) => r.status === "dead").length;
  const probation = rows.filter((r) => r.status === "probation").length;

  return (
    <>
      <div className="page-head">
        <div>
          <p className="crumbs small">
            <Link href="/directory">Directory</Link> /
          </p>
          <h1>{chain?.name ?? network} public RPC endpoints</h1>
          <p>
            Ranked by <Link href="/directory/methodology">score</Link> over the last {search.window}
            {search.region === "all" ? ", all regions" : `, as seen from ${search.region}`}.
          </p>
          <p className="small" data-testid="network-head">
            {list.networkHead ? (
              <>
                Network head <strong>#{list.networkHead.block.toLocaleString("en-US")}</strong> at{" "}
                <Time at={list.networkHead.at} />, agreed by {list.networkHead.agreeing} of{" "}
                {list.networkHead.considered} fresh endpoints.
              </>
            ) : (
              "No network head consensus yet."
            )}
          </p>
        </div>
        <a className="button secondary" href={apiHref} data-testid="json-api-link">
          JSON API for this list
        </a>
      </div>

      <form className="card dir-filters" method="get" action={`/directory/${network}`} aria-label="Filters">
        {search.sort !== "rank" || search.dir !== "asc" ? (
          <>
            <input type="hidden" name="sort" value={search.sort} />
            <input type="hidden" name="dir" value={search.dir} />
          </>
        ) : null}
        <div className="field">
          <label htmlFor="f-q">Search</label>
          <input id="f-q" name="q" type="search" defaultValue={search.q} placeholder="Name, provider or URL" />
        </div>
        <div className="field">
          <label htmlFor="f-region">Region</label>
          <select id="f-region" name="region" defaultValue={search.region}>
            <option value="all">All regions</option>
            {[...new Set([...list.regions, ...(search.region === "all" ? [] : [search.region])])].map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-window">Window</label>
          <select id="f-window" name="window" defaultValue={search.window}>
            {DirectoryWindow.options.map((w) => (
              <option key={w} value={w}>
                {w}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-min">Minimum score</label>
          <input
            id="f-min"
            name="min"
            type="number"
            min={0}
            max={100}
            step={1}
            defaultValue={search.min || ""}
            placeholder="0"
          />
        </div>
        <fieldset>
          <legend>Must support</legend>
          {DIRECTORY_CAPABILITIES.map((c) => (
            <label key={c}>
              <input type="checkbox" name="cap" value={c} defaultChecked={search.cap.includes(c)} />{" "}
              {CAPABILITY_LABELS[c]}
            </label>
          ))}
        </fieldset>
        <div className="dir-filter-actions">
          <button type="submit">Apply</button>
          {filtered || search.region !== "all" || search.window !== "24h" ? (
            <a href={`/directory/${network}`} className="small">
              Reset
            </a>
          ) : null}
        </div>
      </form>

      <section className="card" aria-labelledby="ranked-heading">
        <h2 id="ranked-heading">
          {rows.length.toLocaleString("en-US")} endpoint{rows.length === 1 ? "" : "s"}
          {filtered ? " matching the filters" : ""}
        </h2>
        <p className="dir-meta">
          <span>
            Ranking updated <Time at={list.updatedAt} />
          </span>
          <span>Method {list.scoringVersion}</span>
          {probation ? <span>{probation} on probation (listed after established endpoints)</span> : null}
          {dead ? <span>{dead} dead (demoted, kept in the list)</span> : null}
        </p>
        <details className="dir-legend-box small">
          <summary>What the statuses and columns mean</summary>
          <ul className="dir-list">
            {(["healthy", "degraded", "lagging", "stale", "probation", "dead"] as const).map((st) => (
              <li key={st}>
                <StatusMark status={st} compact /> {STATUS_TEXT[st]}.
              </li>
            ))}
            <li>Latency: time to first byte p50 / p95 per probing region. Lag: mean blocks behind the network head.</li>
            <li>
              Uptime: share of RPC Pulse&apos;s own probes answered with a fresh head; answers that lagged are shown
              apart (&ldquo;lagging&rdquo;), never counted as up. Capabilities: yes, no, or ? when not checked yet.
            </li>
          </ul>
        </details>
        {rows.length === 0 ? (
          <div className="empty">
            <h2>No endpoints {filtered ? "match these filters" : "ranked yet"}</h2>
            <p>
              {filtered
                ? "Loosen the filters, or look at another window."
                : "Endpoints appear here after their first probes are scored (about a minute after they are listed)."}
            </p>
          </div>
        ) : (
          <RankedTable
            rows={rows}
            caption={`${chain?.name ?? network} endpoints by rank`}
            sort={{ key: search.sort, dir: search.dir, href: (sort, dir) => pageHref({ sort, dir }) }}
          />
        )}
      </section>
      <CopyButtons />
    </>
  );
}
