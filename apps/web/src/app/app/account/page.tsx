import type { Metadata } from "next";
import { DEMO_EMAIL, MIN_PASSWORD_LENGTH } from "@rpcpulse/auth";
import { AppShell } from "@/components/app-shell.js";
import { DataTable, labelColumns } from "@/components/data-table.js";
import { Time } from "@/components/time.js";
import { ChangePasswordForm } from "@/features/orgs/accounts/change-password-form.js";
import { ResendVerificationForm } from "@/features/orgs/accounts/recovery-forms.js";
import { TwoFactorSettings } from "@/features/orgs/accounts/two-factor-forms.js";
import { getRuntime } from "@/server/runtime.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { requireSession } from "@/server/session.js";

export const metadata: Metadata = { title: "Account" };
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const session = await requireSession("/app/account");
  const orgs = await getUserOrganizations(session.userId);
  const current = orgs.find((o) => o.id === session.activeOrganizationId) ?? orgs[0];
  const { env, mailer } = getRuntime();
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
        <section className="card" aria-labelledby="email-title">
          <h2 id="email-title">Email address</h2>
          <p>
            {session.email}{" "}
            {session.emailVerified ? (
              <span className="badge ok">confirmed</span>
            ) : (
              <span className="badge warn">not confirmed</span>
            )}
          </p>
          {session.emailVerified ? null : mailer ? (
            <ResendVerificationForm label="Send a confirmation link" />
          ) : (
            <p className="small muted">
              This server cannot send email, so addresses are not confirmed here; invitations are accepted without.
            </p>
          )}
        </section>
        <section className="card" aria-labelledby="tfa-title">
          <h2 id="tfa-title">Two-factor sign-in</h2>
          <TwoFactorSettings enabled={session.twoFactorEnabled} demo={env.DEMO_MODE && session.email === DEMO_EMAIL} />
        </section>
        <section className="card" aria-labelledby="orgs-title">
          <h2 id="orgs-title">Your organizations</h2>
          <DataTable
            columns={labelColumns(["Organization", "Role"])}
            rowCount={orgs.length}
            empty={<p className="muted">None yet.</p>}
          >
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
          </DataTable>
          <p className="small muted after-table">
            Session expires <Time at={session.expiresAt} /> unless used again.
          </p>
        </section>
      </div>
    </AppShell>
  );
}
