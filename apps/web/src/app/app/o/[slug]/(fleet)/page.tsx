import type { Metadata } from "next";
import Link from "next/link";
import { getFleetOverview, listFleetConsensusClients, NODE_STATUSES } from "@rpcpulse/services/fleet";
import { hasRole } from "@rpcpulse/services/context";
import { listProducerViews, listValidatorViews } from "@rpcpulse/services/producers";
import { AppShell } from "@/components/app-shell.js";
import { AutoRefresh } from "@/features/fleet/auto-refresh.js";
import { FleetTable, fleetHref } from "@/features/fleet/fleet-table.js";
import { ProducerCards } from "@/features/producers/producer-cards.js";
import { ValidatorCards } from "@/features/producers/validator-cards.js";
import { getDisplayZone } from "@/server/display-prefs.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { getRuntime } from "@/server/runtime.js";
import { requireOrgContext } from "@/server/session.js";
import "@/features/fleet/fleet.css";
import "@/features/producers/producers.css";

export const metadata: Metadata = { title: "Fleet" };
export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;

function firstValues(params: SearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined) out[k] = value;
  }
  return out;
}

export default async function FleetPage(props: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { slug } = await props.params;
  const { session, ctx } = await requireOrgContext(slug);
  const searchParams = firstValues(await props.searchParams);
  const [orgs, overview, producers, validators] = await Promise.all([
    getUserOrganizations(session.userId),
    getFleetOverview({ sql: getRuntime().reads.sql }, ctx, { query: searchParams }),
    listProducerViews({ sql: getRuntime().reads.sql }, ctx),
    listValidatorViews({ sql: getRuntime().reads.sql }, ctx),
  ]);
  // The shown page's Ethereum nodes that report a consensus client (one primary-key lookup per node).
  const consensus = await listFleetConsensusClients(
    { sql: getRuntime().reads.sql },
    { nodeIds: overview.rows.map((r) => r.id), now: new Date() },
  );
  const org = orgs.find((o) => o.id === ctx.organizationId);
  const { summary, query } = overview;
  const canManage = hasRole(ctx, "admin");
  const zone = await getDisplayZone();
  const filtered = Boolean(query.q || query.status || query.network);
  return (
    <AppShell user={session} orgs={orgs} currentSlug={ctx.organizationSlug} active="fleet">
      <AutoRefresh seconds={30} />
      <div className="page-head fleet-wide">
        <div>
          <h1>Fleet</h1>
          <p>
            {org?.name} · {summary.total} {summary.total === 1 ? "node" : "nodes"} · you are{" "}
            <span className={`badge ${ctx.role}`}>{ctx.role}</span>
          </p>
        </div>
        {canManage ? (
          <Link className="button" href={`/app/o/${slug}/nodes/new`}>
            Add node
          </Link>
        ) : null}
      </div>

      <nav className="tiles" aria-label="Nodes by status">
        {(["up", "lagging", "down", "waiting"] as const).map((s) => (
          <Link
            key={s}
            className={`tile ${s}${query.status === s ? " selected" : ""}`}
            href={fleetHref(slug, query, { status: query.status === s ? undefined : s })}
            aria-current={query.status === s ? "true" : undefined}
          >
            <span className="tile-value">{summary[s]}</span>
            <span className="tile-label">{s === "waiting" ? "waiting for agent" : s}</span>
          </Link>
        ))}
      </nav>

      <section className="card" aria-labelledby="nodes-title">
        <h2 id="nodes-title" className="sr-only">
          Nodes
        </h2>
        {summary.total === 0 ? (
          <div className="empty">
            <h2>No nodes yet</h2>
            <p>
              {canManage
                ? "Add a node, run the one-line install command on its host, and it shows up here within a minute."
                : "An admin of this organization can add nodes."}
            </p>
            {canManage ? (
              <Link className="button" href={`/app/o/${slug}/nodes/new`}>
                Add your first node
              </Link>
            ) : null}
          </div>
        ) : (
          <>
            <form className="filters" method="get" action={`/app/o/${slug}`} role="search">
              <input type="hidden" name="sort" value={query.sort} />
              <input type="hidden" name="dir" value={query.dir} />
              <div className="field">
                <label htmlFor="fleet-q">Search</label>
                <input id="fleet-q" type="search" name="q" defaultValue={query.q ?? ""} placeholder="Node name" />
              </div>
              <div className="field">
                <label htmlFor="fleet-network">Network</label>
                <select id="fleet-network" name="network" defaultValue={query.network ?? ""}>
                  <option value="">All networks</option>
                  {overview.networks.map((n) => (
                    <option key={n.slug} value={n.slug}>
                      {n.name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="fleet-status">Status</label>
                <select id="fleet-status" name="status" defaultValue={query.status ?? ""}>
                  <option value="">Any status</option>
                  {NODE_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="secondary">
                Apply
              </button>
              {filtered ? (
                <Link href={fleetHref(slug, query, { q: undefined, status: undefined, network: undefined })}>
                  Clear filters
                </Link>
              ) : null}
              <span className="muted small filters-count">
                {overview.matched} of {summary.total} match
              </span>
            </form>
            {overview.rows.length === 0 ? (
              <div className="empty">
                <h2>No node matches</h2>
                <p>Change the search or the filters.</p>
              </div>
            ) : (
              <FleetTable slug={slug} overview={overview} consensus={consensus} />
            )}
          </>
        )}
      </section>

      <ProducerCards
        slug={slug}
        producers={producers}
        canManage={canManage}
        error={searchParams.producerError}
        now={Date.now()}
        zone={zone}
      />
      <ValidatorCards
        slug={slug}
        validators={validators}
        canManage={canManage}
        error={searchParams.validatorError}
        now={Date.now()}
        zone={zone}
      />
    </AppShell>
  );
}
