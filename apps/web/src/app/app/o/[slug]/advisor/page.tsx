import type { Metadata } from "next";
import { hasRole } from "@rpcpulse/services/context";
import { listOrganizationNodes } from "@rpcpulse/services/fleet";
import { listSuggestions } from "@rpcpulse/services/advisor";
import { z } from "zod";
import { AppShell } from "@/components/app-shell.js";
import { SEVERITY_ORDER } from "@/features/advisor/format.js";
import { SuggestionCard } from "@/features/advisor/suggestion-card.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { getRuntime } from "@/server/runtime.js";
import { requireOrgContext } from "@/server/session.js";
import "@/features/advisor/advisor.css";

export const metadata: Metadata = { title: "Advisor" };
export const dynamic = "force-dynamic";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const Filters = z.object({
  severity: z.enum(["info", "low", "medium", "high", "critical"]).optional().catch(undefined),
  node: z.string().uuid().optional().catch(undefined),
  view: z.enum(["active", "closed"]).catch("active"),
});

export default async function AdvisorPage(props: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug } = await props.params;
  const search = await props.searchParams;
  const filters = Filters.parse({ severity: one(search.severity), node: one(search.node), view: one(search.view) });
  const { session, ctx } = await requireOrgContext(slug);
  const deps = { prisma: getRuntime().prisma };
  const [orgs, nodes, suggestions] = await Promise.all([
    getUserOrganizations(session.userId),
    listOrganizationNodes(deps, ctx),
    listSuggestions(deps, ctx, {
      ...(filters.node ? { nodeId: filters.node } : {}),
      ...(filters.severity ? { severity: filters.severity } : {}),
      ...(filters.view === "closed" ? { states: ["closed", "dismissed", "auto_closed"] } : {}),
    }),
  ]);
  const canManage = hasRole(ctx, "admin");
  const counts = Object.fromEntries(SEVERITY_ORDER.map((s) => [s, suggestions.filter((x) => x.severity === s).length]));
  const open = suggestions.filter((s) => s.state === "open" || s.state === "acknowledged");
  const results = suggestions.filter((s) => s.state !== "open" && s.state !== "acknowledged");
  const exportHref = `/app/o/${ctx.organizationSlug}/advisor/export${filters.node ? `?node=${filters.node}` : ""}`;
  return (
    <AppShell user={session} orgs={orgs} currentSlug={ctx.organizationSlug} active="advisor">
      <div className="page-head advisor-wide">
        <div>
          <h1>Tuning advisor</h1>
          <p className="muted">
            What each node&apos;s own telemetry says, with the evidence, the change as a snippet, and a before/after
            check once it is applied. RPC Pulse never changes a node by itself.
          </p>
        </div>
        <a className="button secondary" href={exportHref} download data-testid="export-script">
          Export as shell script
        </a>
      </div>

      <div className="sev-tiles" aria-label="Suggestions by severity">
        {SEVERITY_ORDER.map((s) => (
          <a
            key={s}
            href={`?${new URLSearchParams({ ...(filters.node ? { node: filters.node } : {}), severity: s, view: filters.view })}`}
            className={`sev-tile sev-${s}${filters.severity === s ? " selected" : ""}`}
          >
            <span className="tile-value">{counts[s]}</span>
            <span className="tile-label">{s}</span>
          </a>
        ))}
      </div>

      <form className="advisor-filters" method="get">
        <label>
          Node{" "}
          <select name="node" defaultValue={filters.node ?? ""}>
            <option value="">All nodes</option>
            {nodes.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Severity at least{" "}
          <select name="severity" defaultValue={filters.severity ?? ""}>
            <option value="">any</option>
            {[...SEVERITY_ORDER].reverse().map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Show{" "}
          <select name="view" defaultValue={filters.view}>
            <option value="active">open and results</option>
            <option value="closed">closed and dismissed</option>
          </select>
        </label>
        <button type="submit" className="secondary small">
          Filter
        </button>
      </form>

      {suggestions.length === 0 ? (
        <div className="card empty">
          <h2>Nothing to suggest</h2>
          <p>
            {nodes.length === 0
              ? "Enroll a node: the advisor reads its agent's telemetry every minute."
              : "The advisor found nothing in the nodes' recent telemetry that calls for a change."}
          </p>
        </div>
      ) : null}

      {open.length > 0 ? (
        <section aria-labelledby="open-title">
          <h2 id="open-title">{filters.view === "closed" ? "Closed" : "Open suggestions, by impact"}</h2>
          {open.map((s, i) => (
            <SuggestionCard
              key={s.id}
              s={s}
              slug={ctx.organizationSlug}
              canManage={canManage}
              showNode
              open={i === 0}
            />
          ))}
        </section>
      ) : null}
      {results.length > 0 ? (
        <section aria-labelledby="results-title">
          <h2 id="results-title">{filters.view === "closed" ? "Closed and dismissed" : "Applied and verified"}</h2>
          {results.map((s) => (
            <SuggestionCard key={s.id} s={s} slug={ctx.organizationSlug} canManage={canManage} showNode />
          ))}
        </section>
      ) : null}
    </AppShell>
  );
}
