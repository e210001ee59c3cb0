import type { Metadata } from "next";
import { hasRole } from "@rpcpulse/services/context";
import { listOrganizationMembers, listPendingInvitations } from "@rpcpulse/services/orgs";
import { AppShell } from "@/components/app-shell.js";
import { ACTIONS_COLUMN, DataTable, labelColumns } from "@/components/data-table.js";
import { Time } from "@/components/time.js";
import { ApiKeysSection } from "@/features/orgs/api-keys-section.js";
import { InviteForm } from "@/features/orgs/invite-form.js";
import { CancelInvitationButton, MemberActions } from "@/features/orgs/member-actions.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { getRuntime } from "@/server/runtime.js";
import { requireOrgContext } from "@/server/session.js";

export const metadata: Metadata = { title: "Organization settings" };
export const dynamic = "force-dynamic";

export default async function OrgSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { session, ctx } = await requireOrgContext(slug);
  const deps = { prisma: getRuntime().prisma };
  const canManage = hasRole(ctx, "admin");
  const [orgs, members, invitations] = await Promise.all([
    getUserOrganizations(session.userId),
    listOrganizationMembers(deps, ctx),
    canManage ? listPendingInvitations(deps, ctx) : Promise.resolve([]),
  ]);
  const org = orgs.find((o) => o.id === ctx.organizationId);
  const isOwner = ctx.role === "owner";
  return (
    <AppShell user={session} orgs={orgs} currentSlug={ctx.organizationSlug} active="settings">
      <div className="page-head">
        <div>
          <h1>{org?.name} settings</h1>
          <p>
            <span className="mono">/{ctx.organizationSlug}</span> · you are{" "}
            <span className={`badge ${ctx.role}`}>{ctx.role}</span>
          </p>
        </div>
      </div>

      <section className="card" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <DataTable columns={[...labelColumns(["Name", "Email", "Role"]), ...(canManage ? [ACTIONS_COLUMN] : [])]}>
          {members.map((m) => (
            <tr key={m.id}>
              <td>
                {m.name}
                {m.userId === session.userId ? <span className="muted small"> (you)</span> : null}
              </td>
              <td>{m.email}</td>
              <td>
                <span className={`badge ${m.role}`}>{m.role}</span>
              </td>
              {canManage ? (
                <td className="actions">
                  {m.userId !== session.userId && (isOwner || m.role !== "owner") ? (
                    <MemberActions
                      slug={ctx.organizationSlug}
                      memberId={m.id}
                      role={m.role}
                      name={m.name}
                      canSetOwner={isOwner}
                    />
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      </section>

      {canManage ? (
        <div className="grid-2">
          <section className="card" aria-labelledby="invite-title">
            <h2 id="invite-title">Invite someone</h2>
            <p className="small muted">Mail delivery is not set up yet: you get a link to send yourself.</p>
            <InviteForm slug={ctx.organizationSlug} canInviteOwner={isOwner} />
          </section>
          <section className="card" aria-labelledby="pending-title">
            <h2 id="pending-title">Pending invitations</h2>
            <DataTable
              columns={[...labelColumns(["Email", "Role", "Expires"]), ACTIONS_COLUMN]}
              rowCount={invitations.length}
              empty={<p className="muted">None.</p>}
            >
              {invitations.map((i) => (
                <tr key={i.id}>
                  <td>{i.email}</td>
                  <td>
                    <span className={`badge ${i.role}`}>{i.role}</span>
                  </td>
                  <td className="small">
                    <Time at={i.expiresAt} dateOnly />
                  </td>
                  <td className="actions">
                    <CancelInvitationButton slug={ctx.organizationSlug} invitationId={i.id} email={i.email} />
                  </td>
                </tr>
              ))}
            </DataTable>
          </section>
        </div>
      ) : (
        <p className="muted">Viewers can see members; admins and owners manage them.</p>
      )}
      {canManage ? <ApiKeysSection ctx={ctx} /> : null}
    </AppShell>
  );
}
