import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { z } from "zod";
import { AppShell } from "@/components/app-shell.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { requireSession } from "@/server/session.js";

export const metadata: Metadata = { title: "Claim an endpoint" };
export const dynamic = "force-dynamic";

/** From a public endpoint page: pick the organization that claims it (straight there when there is one). */
export default async function ClaimEndpointPickPage({ params }: { params: Promise<{ endpointId: string }> }) {
  const { endpointId } = await params;
  if (!z.uuid().safeParse(endpointId).success) notFound();
  const session = await requireSession(`/app/claim/${endpointId}`);
  const orgs = await getUserOrganizations(session.userId);
  const target = (slug: string) => `/app/o/${slug}/endpoints?endpoint=${endpointId}`;
  if (orgs.length === 1) redirect(target(orgs[0]!.slug));
  return (
    <AppShell user={session} orgs={orgs}>
      <div className="page-head">
        <div>
          <h1>Claim an endpoint</h1>
          <p className="muted">Which organization runs it?</p>
        </div>
      </div>
      <section className="card">
        {orgs.length === 0 ? (
          <p>
            Create an organization first: <Link href="/app/new-organization">new organization</Link>.
          </p>
        ) : (
          <ul>
            {orgs.map((o) => (
              <li key={o.slug}>
                <Link href={target(o.slug)}>{o.name}</Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </AppShell>
  );
}
