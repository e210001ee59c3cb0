import type { Metadata } from "next";
import Link from "next/link";
import { getEndpointDiagnostics, getEndpointHistory, HistoryRange } from "@rpcpulse/services/directory";
import { BadgeEmbeds } from "@/features/directory/badge-embeds.js";
import { uptime24h } from "@/features/directory/badge-facts.js";
import { CapabilityTable } from "@/features/directory/capability-table.js";
import { CopyButtons } from "@/features/directory/copy-buttons.js";
import { EndpointCharts } from "@/features/directory/endpoint-charts.js";
import { LagChart, RecentErrors } from "@/features/directory/endpoint-diagnostics.js";
import { formatBlocks, formatLatency, formatScore, formatUptime } from "@/features/directory/format.js";
import { StatusMark, VerifiedMark } from "@/features/directory/status-mark.js";
import type { DirectoryStatus } from "@/features/directory/view-model.js";
import { WindowTable } from "@/features/directory/window-table.js";
import { loadEndpointDetail } from "@/features/directory/load-endpoint-detail.js";
import { getRuntime } from "@/server/runtime.js";
import { Time } from "@/components/time.js";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { id } = await props.params;
  const detail = await loadEndpointDetail(id);
  return {
    title: `${detail.name} (${detail.network})`,
    description: `Availability, latency and capabilities of ${detail.url}.`,
  };
}

export default async function EndpointPage(props: Props) {
  const { id } = await props.params;
  const raw = (await props.searchParams).range;
  const range = HistoryRange.catch("24h").parse(Array.isArray(raw) ? raw[0] : raw);
  const { sql, env } = getRuntime();
  const detail = await loadEndpointDetail(id);
  const [history, diagnostics] = await Promise.all([
    getEndpointHistory({ sql }, { endpointId: detail.id, range }),
    getEndpointDiagnostics({ sql }, { endpointId: detail.id, range }),
  ]);
  const main = detail.windows.find((w) => w.window === "24h" && w.region === "all") ?? detail.windows[0] ?? null;
  const status = main?.health ?? (detail.status === "active" ? "healthy" : detail.status);
  const base = env.APP_BASE_URL.replace(/\/$/, "");

  return (
    <>
      <div className="page-head">
        <div>
          <p className="crumbs small">
            <Link href="/directory">Directory</Link> / <a href={`/directory/${detail.network}`}>{detail.network}</a> /
          </p>
          <h1>{detail.name}</h1>
          <p>
            {detail.provider ? `${detail.provider} · ` : ""}
            {detail.family} API · listed since <Time at={detail.createdAt} />
          </p>
          <div className="dir-marks">
            <StatusMark status={status as DirectoryStatus} />
            {detail.operatorVerified ? <VerifiedMark /> : null}
          </div>
          <p className="small" data-testid="endpoint-operator">
            {detail.claimedBy ? (
              <>
                Run by <strong>{detail.claimedBy}</strong> (claimed)
              </>
            ) : (
              <>
                Not claimed. <Link href={`/app/claim/${detail.id}`}>Do you run it? Claim it</Link>
              </>
            )}
          </p>
        </div>
        <a className="button secondary" href={`/api/v1/endpoints/${detail.id}`}>
          JSON API
        </a>
      </div>

      <section className="card" aria-label="Endpoint URL">
        <div className="dir-url dir-url-wide">
          <code data-testid="endpoint-url">{detail.url}</code>
          <button type="button" className="copy-btn" data-copy={detail.url} aria-label={`Copy ${detail.url}`}>
            Copy
          </button>
        </div>
      </section>

      <dl className="dir-facts" aria-label="Last 24 hours, all regions">
        <div>
          <dt>Rank (24 h)</dt>
          <dd>{main ? `#${main.rank}` : "—"}</dd>
        </div>
        <div>
          <dt>Score</dt>
          <dd>{formatScore(main?.score)}</dd>
        </div>
        <div>
          <dt>Availability</dt>
          <dd>{formatUptime(main?.availability)}</dd>
        </div>
        <div>
          <dt title="Share of probes answered with a fresh head (lagging or stale answers are not up)">Uptime</dt>
          <dd>{formatUptime(main && main.window === "24h" ? uptime24h(main.components) : null)}</dd>
        </div>
        <div>
          <dt>Latency p50</dt>
          <dd>{formatLatency(main?.p50Ms)}</dd>
        </div>
        <div>
          <dt>Latency p95</dt>
          <dd>{formatLatency(main?.p95Ms)}</dd>
        </div>
        <div>
          <dt>Lag (blocks)</dt>
          <dd>{formatBlocks(main?.lagBlocks)}</dd>
        </div>
      </dl>

      <section className="card dir-section" aria-labelledby="history-heading">
        <div className="dir-section-head">
          <h2 id="history-heading">History</h2>
          <nav className="dir-ranges" aria-label="History range">
            {HistoryRange.options.map((r) => (
              <a key={r} href={`?range=${r}`} aria-current={r === range ? "page" : undefined}>
                {r}
              </a>
            ))}
          </nav>
        </div>
        <EndpointCharts history={history} />
        <div className="dir-charts">
          <LagChart diagnostics={diagnostics} />
        </div>
      </section>

      <section className="card" aria-labelledby="errors-heading">
        <h2 id="errors-heading">Recent errors</h2>
        <RecentErrors diagnostics={diagnostics} />
      </section>

      <section className="card" aria-labelledby="windows-heading">
        <h2 id="windows-heading">Score by window and region</h2>
        <WindowTable windows={detail.windows} />
      </section>

      <section className="card" aria-labelledby="caps-heading">
        <h2 id="caps-heading">Capabilities</h2>
        <CapabilityTable capabilities={detail.capabilities} />
      </section>

      <section className="card dir-embed" aria-labelledby="badge-heading">
        <h2 id="badge-heading">Badges</h2>
        <p className="muted small">For READMEs and status pages. Cached for a minute.</p>
        <BadgeEmbeds base={base} endpointId={detail.id} name={detail.name} />
      </section>
      <CopyButtons />
    </>
  );
}
