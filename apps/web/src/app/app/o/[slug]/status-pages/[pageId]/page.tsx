import type { Metadata } from "next";
import { isAppError } from "@rpcpulse/config";
import {
  getStatusPageForAdmin,
  listComponentCandidates,
  listIncidents,
  listMaintenance,
  listSubscribers,
} from "@rpcpulse/services/status";
import { hasRole } from "@rpcpulse/services/context";
import { notFound } from "next/navigation";
import { AppShell } from "@/components/app-shell.js";
import { ActionForm } from "@/features/status/action-form.js";
import { deleteStatusPageAction } from "@/features/status/actions.js";
import { IncidentsSection, MaintenanceSection, SubscribersSection } from "@/features/status/admin-incidents.js";
import { ComponentsSection, DomainSection, GroupsSection, PageSettingsForm } from "@/features/status/admin-sections.js";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { requireOrgContext } from "@/server/session.js";
import "@/features/status/status.css";

export const metadata: Metadata = { title: "Status page" };
export const dynamic = "force-dynamic";

export default async function StatusPageAdmin({ params }: { params: Promise<{ slug: string; pageId: string }> }) {
  const { slug, pageId } = await params;
  const { session, ctx } = await requireOrgContext(slug);
  const deps = getStatusReadDeps();
  let page;
  try {
    page = await getStatusPageForAdmin(deps, ctx, { pageId });
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  const canEdit = hasRole(ctx, "admin");
  const [orgs, incidents, windows, subscribers, candidates] = await Promise.all([
    getUserOrganizations(session.userId),
    listIncidents(deps, ctx),
    listMaintenance(deps, ctx, { pageId }),
    listSubscribers(deps, ctx, { pageId }),
    canEdit
      ? listComponentCandidates(deps, ctx)
      : Promise.resolve({ nodes: [], endpoints: [], producers: [], consensusClients: [] }),
  ]);
  const own = new Set(page.components.map((c) => c.id));
  const pageIncidents = incidents.filter(
    (i) => i.pageId === page.id || i.components.some((l) => own.has(l.componentId)),
  );
  const ids = { orgSlug: ctx.organizationSlug, pageId: page.id };
  return (
    <AppShell user={session} orgs={orgs} currentSlug={ctx.organizationSlug} active="status">
      <div className="page-head">
        <div>
          <h1>{page.title}</h1>
          <p>
            {page.isPublic ? (
              <a href={`/status/${page.slug}`} data-testid="public-link">
                /status/{page.slug}
              </a>
            ) : (
              <span className="mono">/status/{page.slug}</span>
            )}{" "}
            · <span className={`badge ${page.isPublic ? "ok" : ""}`}>{page.isPublic ? "public" : "draft"}</span>
          </p>
        </div>
      </div>
      <div className="sp-admin-grid">
        <section className="card" aria-labelledby="settings-title">
          <h2 id="settings-title">Page</h2>
          {canEdit ? <PageSettingsForm page={page} ids={ids} /> : <p>{page.description || "No description."}</p>}
        </section>
        <section className="card" aria-labelledby="domain-title">
          <h2 id="domain-title">Custom domain</h2>
          <DomainSection page={page} ids={ids} canEdit={canEdit} />
        </section>
      </div>
      <section className="card" aria-labelledby="groups-title">
        <h2 id="groups-title">Groups</h2>
        <GroupsSection page={page} ids={ids} canEdit={canEdit} />
      </section>
      <section className="card" aria-labelledby="components-title">
        <h2 id="components-title">Components</h2>
        <ComponentsSection page={page} ids={ids} canEdit={canEdit} candidates={candidates} />
      </section>
      <section className="card" aria-labelledby="incidents-title">
        <h2 id="incidents-title">Incidents</h2>
        <IncidentsSection page={page} ids={ids} incidents={pageIncidents} canEdit={canEdit} />
      </section>
      <section className="card" aria-labelledby="maintenance-title">
        <h2 id="maintenance-title">Maintenance</h2>
        <MaintenanceSection page={page} ids={ids} windows={windows} canEdit={canEdit} />
      </section>
      <section className="card" aria-labelledby="subscribers-title">
        <h2 id="subscribers-title">Subscribers</h2>
        <SubscribersSection ids={ids} subscribers={subscribers} canEdit={canEdit} />
      </section>
      {canEdit ? (
        <section className="card" aria-labelledby="danger-title">
          <h2 id="danger-title">Delete</h2>
          <ActionForm action={deleteStatusPageAction} hidden={ids} submit="Delete this status page" danger />
        </section>
      ) : null}
    </AppShell>
  );
}
