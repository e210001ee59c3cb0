import type { Metadata } from "next";
import { MIN_PASSWORD_LENGTH } from "@rpcpulse/auth";
import { AppShell } from "../../../components/app-shell.js";
import { ChangePasswordForm } from "../../../features/accounts/change-password-form.js";
import { getUserOrganizations } from "../../../server/org-pages.js";
import { requireSession } from "../../../server/session.js";

export const metadata: Metadata = { title: "Account" };
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const session = await requireSession("/app/account");
  const orgs = await getUserOrganizations(session.userId);
  const current = orgs.find((o) => o.id === session.activeOrganizationId) ?? orgs[0];
  return (
    <AppShell user={session} orgs={orgs} currentSlug={current?.slug} active="account">
      <div className="page-head">
        <div>
          <h1>Account</h1>
          <p>
            {session.name} · {session.email}
          </p>
        </div>
      </div>
      <div className="grid-2">
        <section className="card" aria-labelledby="pw-title">
          <h2 id="pw-title">Change password</h2>
          <ChangePasswordForm minPasswordLength={MIN_PASSWORD_LENGTH} />
        </section>
        <section className="card" aria-labelledby="orgs-title">
          <h2 id="orgs-title">Your organizations</h2>
          {orgs.length === 0 ? (
            <p className="muted">None yet.</p>
          ) : (
            <table className="data">
              <thead>
                <tr>
                  <th scope="col">Organization</th>
                  <th scope="col">Role</th>
                </tr>
              </thead>
              <tbody>
                {orgs.map((o) => (
                  <tr key={o.id}>
                    <td>
                      <a href={`/app/o/${o.slug}`}>{o.name}</a>
                    </td>
                    <td>
                      <span className={`badge ${o.role}`}>{o.role}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p className="small muted after-table">
            Session expires {session.expiresAt.toUTCString()} unless used again.
          </p>
        </section>
      </div>
    </AppShell>
  );
}
