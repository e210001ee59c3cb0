import type { Metadata } from "next";
import Link from "next/link";
import { isAppError } from "@rpcpulse/config";
import { getIncident, getStatusPageForAdmin } from "@rpcpulse/services/status";
import { hasRole } from "@rpcpulse/services/context";
import { notFound } from "next/navigation";
import { AppShell } from "@/components/app-shell.js";
import { Field } from "@/components/field.js";
import { ActionForm } from "@/features/status/action-form.js";
import { deleteIncidentAction, updateIncidentAction, postIncidentUpdateAction } from "@/features/status/actions.js";
import { titleCase } from "@/features/status/format.js";
import { getStatusReadDeps } from "@/features/status/status-deps.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { requireOrgContext } from "@/server/session.js";
import "@/features/status/status.css";
import { Time } from "@/components/time.js";

export const metadata: Metadata = { title: "Incident" };
export const dynamic = "force-dynamic";

export default async function IncidentAdmin({
  params,
}: {
  params: Promise<{ slug: string; pageId: string; incidentId: string }>;
}) {
  const { slug, pageId, incidentId } = await params;
  const { session, ctx } = await requireOrgContext(slug);
  const deps = getStatusReadDeps();
  let page, incident;
  try {
    [page, incident] = await Promise.all([
      getStatusPageForAdmin(deps, ctx, { pageId }),
      getIncident(deps, ctx, { incidentId }),
    ]);
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  const orgs = await getUserOrganizations(session.userId);
  const canEdit = hasRole(ctx, "admin");
  const ids = { orgSlug: ctx.organizationSlug, pageId: page.id, incidentId: incident.id };
  return (
    <AppShell user={session} orgs={orgs} currentSlug={ctx.organizationSlug} active="status">
      <div className="page-head">
        <div>
          <p className="small">
            <Link href={`/app/o/${ctx.organizationSlug}/status-pages/${page.id}`}>← {page.title}</Link>
          </p>
          <h1>{incident.title}</h1>
          <p>
            <span className={`sp-pill st-${incident.status}`}>{titleCase(incident.status)}</span> · impact{" "}
            {incident.impact}
            {incident.auto ? " · opened automatically by an alert" : ""} · started <Time at={incident.startedAt} />
          </p>
        </div>
      </div>
      <section className="card" aria-labelledby="updates-title">
        <h2 id="updates-title">Updates</h2>
        <ul className="sp-updates">
          {incident.updates.map((u) => (
            <li key={u.id}>
              <strong>{titleCase(u.status)}</strong>{" "}
              <span className="small muted">
                <Time at={u.createdAt} />
              </span>
              <div className="sp-md" dangerouslySetInnerHTML={{ __html: u.bodyHtml }} />
            </li>
          ))}
        </ul>
      </section>
      {canEdit ? (
        <div className="sp-admin-grid">
          <section className="card" aria-labelledby="post-title">
            <h2 id="post-title">Post an update</h2>
            <ActionForm action={postIncidentUpdateAction} hidden={ids} submit="Post update" testId="post-update">
              <div className="field">
                <label htmlFor="f-up-status">Status</label>
                <select id="f-up-status" name="status" defaultValue={incident.status}>
                  {["investigating", "identified", "monitoring", "resolved"].map((s) => (
                    <option key={s} value={s}>
                      {titleCase(s)}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="f-up-body">Message (Markdown)</label>
                <textarea id="f-up-body" name="body" required maxLength={10000} rows={4} />
              </div>
            </ActionForm>
          </section>
          <section className="card" aria-labelledby="edit-title">
            <h2 id="edit-title">Edit</h2>
            <ActionForm action={updateIncidentAction} hidden={ids} submit="Save">
              <Field
                scope="inc-edit"
                name="title"
                label="Title"
                required
                maxLength={200}
                defaultValue={incident.title}
              />
              <div className="field">
                <label htmlFor="f-ed-impact">Impact</label>
                <select id="f-ed-impact" name="impact" defaultValue={incident.impact}>
                  {["none", "minor", "major", "critical"].map((s) => (
                    <option key={s} value={s}>
                      {titleCase(s)}
                    </option>
                  ))}
                </select>
              </div>
            </ActionForm>
            <ActionForm action={deleteIncidentAction} hidden={ids} submit="Delete incident" danger />
          </section>
        </div>
      ) : null}
    </AppShell>
  );
}
