import type { Metadata } from "next";
import Link from "next/link";
import { hasRole } from "@rpcpulse/services/context";
import { listStatusPages } from "@rpcpulse/services/status";
import { AppShell } from "@/components/app-shell.js";
import { DataTable, labelColumns } from "@/components/data-table.js";
import { Field } from "@/components/field.js";
import { ActionForm } from "@/features/status/action-form.js";
import { createStatusPageAction } from "@/features/status/actions.js";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { requireOrgContext } from "@/server/session.js";
import "@/features/status/status.css";

export const metadata: Metadata = { title: "Status pages" };
export const dynamic = "force-dynamic";

export default async function StatusPagesPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { session, ctx } = await requireOrgContext(slug);
  const [orgs, pages] = await Promise.all([
    getUserOrganizations(session.userId),
    listStatusPages(getStatusReadDeps(), ctx),
  ]);
  const canEdit = hasRole(ctx, "admin");
  return (
    <AppShell user={session} orgs={orgs} currentSlug={ctx.organizationSlug} active="status">
      <div className="page-head">
        <div>
          <h1>Status pages</h1>
          <p className="muted">Public pages with the live state, uptime and incidents of your nodes and endpoints.</p>
        </div>
      </div>
      <section className="card" aria-labelledby="pages-title">
        <h2 id="pages-title">Pages</h2>
        <DataTable
          columns={labelColumns(["Title", "Public URL", "Components", "Subscribers", "Visibility"])}
          rowCount={pages.length}
          empty={<p className="muted">No status page yet.</p>}
        >
          {pages.map((p) => (
            <tr key={p.id}>
              <td>
                <Link href={`/app/o/${ctx.organizationSlug}/status-pages/${p.id}`}>{p.title}</Link>
              </td>
              <td className="mono small">
                {p.isPublic ? <a href={`/status/${p.slug}`}>/status/{p.slug}</a> : `/status/${p.slug}`}
                {p.customDomain ? ` · ${p.customDomain}${p.domainVerified ? "" : " (unverified)"}` : null}
              </td>
              <td>{p.components}</td>
              <td>{p.subscribers}</td>
              <td>
                <span className={`badge ${p.isPublic ? "ok" : ""}`}>{p.isPublic ? "public" : "draft"}</span>
              </td>
            </tr>
          ))}
        </DataTable>
      </section>
      {canEdit ? (
        <section className="card" aria-labelledby="create-page-heading">
          <h2 id="create-page-heading">New status page</h2>
          <ActionForm
            action={createStatusPageAction}
            hidden={{ orgSlug: ctx.organizationSlug }}
            submit="Create page"
            testId="create-status-page"
          >
            <Field scope="new-page" name="title" label="Title" required maxLength={120} placeholder="Acme RPC status" />
            <div className="field">
              <label htmlFor="f-page-slug">Slug</label>
              <input
                id="f-page-slug"
                name="slug"
                required
                maxLength={63}
                pattern="[a-z0-9][a-z0-9-]{1,62}"
                placeholder="acme-rpc"
              />
              <span className="hint">The page lives at /status/&lt;slug&gt;.</span>
            </div>
            <Field scope="new-page" name="description" label="Description (optional)" maxLength={1000} />
            <label className="check">
              <input type="checkbox" name="isPublic" defaultChecked /> Public (drafts answer 404)
            </label>
          </ActionForm>
        </section>
      ) : null}
    </AppShell>
  );
}
