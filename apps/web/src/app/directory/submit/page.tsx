import type { Metadata } from "next";
import Link from "next/link";
import { CHAINS, NETWORKS } from "@rpcpulse/domain";
import { ACTIVATE_AFTER_OK, SUBMISSIONS_PER_HOUR } from "@rpcpulse/services/directory";
import { SubmitEndpointForm } from "@/features/directory/submit-form.js";
import { getCurrentSession } from "@/server/session.js";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Submit a public endpoint" };

export default async function SubmitEndpointPage() {
  const session = await getCurrentSession();
  const networks = NETWORKS.map((n) => ({
    slug: n.slug,
    name: n.name,
    families: CHAINS.find((c) => c.slug === n.chain)?.families ?? [],
  }));
  return (
    <>
      <div className="page-head">
        <div>
          <p className="crumbs small">
            <Link href="/directory">Directory</Link> /
          </p>
          <h1>Submit a public endpoint</h1>
          <p>
            A submitted endpoint is probed from our vantage points at once and stays on probation (listed after
            established endpoints) until it has answered healthy {ACTIVATE_AFTER_OK} times in a row. At most{" "}
            {SUBMISSIONS_PER_HOUR} submissions an hour.
          </p>
        </div>
      </div>
      <section className="card">
        {session ? (
          <SubmitEndpointForm networks={networks} />
        ) : (
          <p>
            <Link href="/sign-in?next=/directory/submit">Sign in</Link> to submit an endpoint.
          </p>
        )}
      </section>
    </>
  );
}
