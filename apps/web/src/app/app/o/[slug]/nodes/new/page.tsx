import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { hasRole } from "@rpcpulse/services/context";
import { AppShell } from "@/components/app-shell.js";
import { EnrollForm } from "@/features/fleet/enroll-form.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { requireOrgContext } from "@/server/session.js";
import "@/features/fleet/fleet.css";

export const metadata: Metadata = { title: "Add node" };
export const dynamic = "force-dynamic";

export default async function NewNodePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { session, ctx } = await requireOrgContext(slug);
  // Viewers cannot enroll; the action checks the role again.
  if (!hasRole(ctx, "admin")) notFound();
  const orgs = await getUserOrganizations(session.userId);
  return (
    <AppShell user={session} orgs={orgs} currentSlug={ctx.organizationSlug} active="fleet">
      <div className="page-head">
        <div>
          <p className="crumbs">
            <Link href={`/app/o/${slug}`}>Fleet</Link> /
          </p>
          <h1>Add a node</h1>
          <p>Describe the node; you get a token and a one-line command that installs the agent on its host.</p>
        </div>
      </div>
      <section className="card">
        <EnrollForm slug={ctx.organizationSlug} />
      </section>
    </AppShell>
  );
}
