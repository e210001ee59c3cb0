import type { Metadata } from "next";
import { AppShell } from "@/components/app-shell.js";
import { CreateOrgForm } from "@/features/orgs/create-org-form.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { requireSession } from "@/server/session.js";

export const metadata: Metadata = { title: "New organization" };
export const dynamic = "force-dynamic";

export default async function NewOrganizationPage() {
  const session = await requireSession("/app/new-organization");
  const orgs = await getUserOrganizations(session.userId);
  return (
    <AppShell user={session} orgs={orgs}>
      <div className="page-head">
        <div>
          <h1>New organization</h1>
          <p>An organization holds a fleet of nodes and the people who watch it.</p>
        </div>
      </div>
      <div className="card">
        {orgs.length === 0 ? (
          <p className="muted">
            You are not in any organization yet. Create one here, or open the invitation link a colleague sent you.
          </p>
        ) : null}
        <CreateOrgForm />
      </div>
    </AppShell>
  );
}
