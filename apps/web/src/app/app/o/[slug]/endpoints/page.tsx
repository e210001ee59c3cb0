import type { Metadata } from "next";
import Link from "next/link";
import { hasRole } from "@rpcpulse/services/context";
import { listEndpointClaims } from "@rpcpulse/services/directory";
import { AppShell } from "@/components/app-shell.js";
import { Time } from "@/components/time.js";
import { getClaimDeps } from "@/features/directory/claims/claim-deps.js";
import { ClaimEndpointForm, VerifyClaimButtons, WithdrawClaimButton } from "@/features/directory/claims/claim-forms.js";
import { CopyField } from "@/features/fleet/copy-field.js";
import { getUserOrganizations } from "@/server/org-pages.js";
import { requireOrgContext } from "@/server/session.js";
import "@/features/directory/claims/claims.css";

export const metadata: Metadata = { title: "Endpoint claims" };
export const dynamic = "force-dynamic";

export default async function EndpointClaimsPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug } = await params;
  const query = await searchParams;
  const { session, ctx } = await requireOrgContext(slug);
  const [orgs, claims] = await Promise.all([
    getUserOrganizations(session.userId),
    listEndpointClaims(getClaimDeps(), ctx),
  ]);
  const canManage = hasRole(ctx, "admin");
  const prefill = typeof query.endpoint === "string" ? query.endpoint.slice(0, 2048) : undefined;
  return (
    <AppShell user={session} orgs={orgs} currentSlug={ctx.organizationSlug} active="endpoints">
      <div className="page-head">
        <div>
          <h1>Public endpoints you run</h1>
          <p className="muted">
            Claim a listed endpoint to show your organization next to it in the{" "}
            <Link href="/directory">public directory</Link>, marked operator verified. Prove you control it in one of
            two ways: publish a DNS TXT record <span className="mono">_rpcpulse.&lt;host&gt;</span>, or have the
            endpoint serve its claim token at{" "}
            <span className="mono">https://&lt;host&gt;/.well-known/rpcpulse-claim</span> (over HTTPS with a valid
            certificate; the endpoint&apos;s own port for https endpoints, port 443 otherwise; redirects are not
            followed). What your agent reports is not a proof. If another organization proves control later, the
            endpoint moves to it and your claim shows as taken over.
          </p>
        </div>
      </div>

      <section className="card" aria-labelledby="claims-title">
        <h2 id="claims-title">Claims</h2>
        {claims.length === 0 ? (
          <p className="muted">No claims yet.</p>
        ) : (
          <ul className="claim-list">
            {claims.map((c) => (
              <li key={c.id} className="claim" data-testid="claim">
                <div className="claim-head">
                  <div>
                    <Link href={`/directory/endpoints/${c.endpointId}`} className="mono">
                      {c.url}
                    </Link>
                    <span className="muted small"> · {c.network}</span>
                  </div>
                  <span className={`badge ${c.status === "verified" ? (c.holds ? "online" : "offline") : "pending"}`}>
                    {c.status === "verified"
                      ? c.holds
                        ? `verified (${c.verifiedMethod})`
                        : "taken over by another organization"
                      : "pending"}
                  </span>
                </div>
                {c.dnsName ? (
                  <div className="claim-dns">
                    <CopyField id={`dns-name-${c.id}`} label="TXT record name" value={c.dnsName} />
                    <CopyField id={`dns-value-${c.id}`} label="TXT record value" value={c.dnsValue} />
                  </div>
                ) : (
                  <p className="small muted">The URL is an IP address: no DNS record; use the well-known file.</p>
                )}
                {c.wellKnownUrl ? (
                  <div className="claim-dns">
                    <CopyField id={`wk-url-${c.id}`} label="Or serve this file" value={c.wellKnownUrl} />
                    <CopyField id={`wk-body-${c.id}`} label="with this content" value={c.wellKnownBody} />
                  </div>
                ) : null}
                <p className="small muted">
                  Last checked <Time at={c.lastCheckedAt} />
                  {c.verifiedAt ? (
                    <>
                      {" "}
                      · verified <Time at={c.verifiedAt} />
                    </>
                  ) : null}
                </p>
                {c.lastError ? (
                  <p className="small claim-error" role="status">
                    {c.lastError}
                  </p>
                ) : null}
                {canManage ? (
                  <div className="claim-row">
                    <VerifyClaimButtons
                      slug={ctx.organizationSlug}
                      claimId={c.id}
                      dns={c.dnsName !== null}
                      wellKnown={c.wellKnownUrl !== null}
                    />
                    <WithdrawClaimButton slug={ctx.organizationSlug} claimId={c.id} url={c.url} />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      {canManage ? (
        <section className="card" aria-labelledby="claim-title">
          <h2 id="claim-title">Claim an endpoint</h2>
          <ClaimEndpointForm slug={ctx.organizationSlug} endpoint={prefill} />
        </section>
      ) : (
        <p className="muted small">Admins and owners can claim endpoints.</p>
      )}
    </AppShell>
  );
}
