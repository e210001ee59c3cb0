import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { isAppError } from "@rpcpulse/config";
import {
  getNodeConsensusClient,
  getNodeMetrics,
  listAgentTokens,
  METRIC_RANGES,
  MetricRange,
  getNode,
} from "@rpcpulse/services/fleet";
import { hasRole } from "@rpcpulse/services/context";
import { AppShell } from "@/components/app-shell.js";
import { ACTIONS_COLUMN, DataTable, labelColumns } from "@/components/data-table.js";
import { NodeLive } from "@/features/fleet/node-live.js";
import { ConsensusClientPanel } from "@/features/fleet/consensus-client-panel.js";
import { NodeAdvisorSection } from "@/features/advisor/node-advisor-section.js";
import { DeleteNodeForm, NodeSettingsForm } from "@/features/fleet/node-settings-form.js";
import { RevokeTokenForm, RotateTokenForm } from "@/features/fleet/token-actions.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { getRuntime } from "@/server/runtime.js";
import { requireOrgContext } from "@/server/session.js";
import "@/features/fleet/fleet.css";
import { Time } from "@/components/time.js";

export const metadata: Metadata = { title: "Node" };
export const dynamic = "force-dynamic";

export default async function NodePage(props: {
  params: Promise<{ slug: string; nodeId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug, nodeId } = await props.params;
  const search = await props.searchParams;
  const range = MetricRange.catch("1h").parse(Array.isArray(search.range) ? search.range[0] : search.range);
  const { session, ctx } = await requireOrgContext(slug);
  const { prisma, sql, reads } = getRuntime();
  // The node and its tokens from the primary (the page right after creating a node or issuing a
  // token must show them); the time series from the read replica when one is healthy.
  const deps = { prisma, sql };
  let node;
  try {
    node = await getNode(deps, ctx, { nodeId });
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  const [orgs, metrics, tokens] = await Promise.all([
    getUserOrganizations(session.userId),
    getNodeMetrics({ prisma, sql: reads.sql }, ctx, { nodeId: node.id, range }),
    listAgentTokens(deps, ctx, { nodeId: node.id }),
  ]);
  // Ethereum nodes whose agent reads a consensus client (--beacon-url): shown beside the execution node.
  const consensus =
    node.apiFamily === "ethereum"
      ? await getNodeConsensusClient({ prisma, sql: reads.sql }, ctx, {
          nodeId: node.id,
          from: new Date(metrics.from),
          to: new Date(metrics.to),
        })
      : null;
  const canManage = hasRole(ctx, "admin");
  const base = `/app/o/${ctx.organizationSlug}/nodes/${node.id}`;
  const now = new Date(metrics.to);
  return (
    <AppShell user={session} orgs={orgs} currentSlug={ctx.organizationSlug} active="fleet">
      <div className="page-head fleet-wide">
        <div>
          <p className="crumbs">
            <Link href={`/app/o/${slug}`}>Fleet</Link> /
          </p>
          <h1>{node.name}</h1>
          <p>
            {node.chainName} · {node.networkName} ·{" "}
            <span className="mono">
              {node.clientName}
              {node.clientVersion ? ` ${node.clientVersion}` : ""}
            </span>
            {node.region ? ` · ${node.region}` : ""}
          </p>
        </div>
        <nav className="range-picker" aria-label="Time range">
          {METRIC_RANGES.map((r) => (
            <Link key={r} href={`${base}?range=${r}`} aria-current={r === range ? "page" : undefined} scroll={false}>
              {r}
            </Link>
          ))}
        </nav>
      </div>

      <NodeLive metricsUrl={`${base}/metrics`} initial={metrics} />

      {consensus ? <ConsensusClientPanel page={consensus} /> : null}

      <NodeAdvisorSection ctx={ctx} nodeId={node.id} />

      <section className="card" aria-labelledby="tokens-title">
        <h2 id="tokens-title">Agent tokens</h2>
        <DataTable
          className="compact"
          columns={[
            ...labelColumns(["Token", "Created", "Last used", "State"]),
            ...(canManage ? [ACTIONS_COLUMN] : []),
          ]}
        >
          {tokens.map((t) => {
            const revoked = t.revokedAt !== null;
            const expired = !revoked && t.expiresAt !== null && t.expiresAt.getTime() <= now.getTime();
            const state = revoked ? "revoked" : expired ? "expired" : t.expiresAt ? "expires" : "active";
            return (
              <tr key={t.id}>
                <td className="mono">rpa_{t.prefix}_…</td>
                <td>
                  <Time at={t.createdAt} />
                </td>
                <td>
                  <Time at={t.lastUsedAt} />
                </td>
                <td>
                  {state}
                  {state === "expires" ? (
                    <>
                      {" "}
                      <Time at={t.expiresAt} />
                    </>
                  ) : null}
                </td>
                {canManage ? (
                  <td className="actions">
                    {!revoked && !expired ? (
                      <RevokeTokenForm slug={ctx.organizationSlug} nodeId={node.id} tokenId={t.id} prefix={t.prefix} />
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </DataTable>
        {tokens.length === 0 ? <p className="muted">No token: rotate to issue one.</p> : null}
        {canManage ? (
          <div className="after-table">
            <RotateTokenForm slug={ctx.organizationSlug} nodeId={node.id} />
          </div>
        ) : null}
      </section>

      {canManage ? (
        <section className="card" aria-labelledby="settings-title">
          <h2 id="settings-title">Node settings</h2>
          <NodeSettingsForm
            slug={ctx.organizationSlug}
            nodeId={node.id}
            values={{
              network: node.networkSlug,
              apiFamily: node.apiFamily,
              clientName: node.clientName,
              clientVersion: node.clientVersion ?? "",
              name: node.name,
              localRpcUrl: node.localRpcUrl,
              publicUrl: node.publicUrl ?? "",
              region: node.region ?? "",
            }}
          />
          <hr />
          <DeleteNodeForm slug={ctx.organizationSlug} nodeId={node.id} name={node.name} />
        </section>
      ) : null}
    </AppShell>
  );
}
