import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { PublicHeader } from "@/components/public-header.js";
import { safeNext } from "@/features/orgs/accounts/safe-next.js";
import { TwoFactorSignInForms } from "@/features/orgs/accounts/two-factor-forms.js";
import { getCurrentSession } from "@/server/session.js";

export const metadata: Metadata = { title: "Two-factor sign-in" };
export const dynamic = "force-dynamic";

export default async function TwoFactorSignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const next = safeNext(typeof params.next === "string" ? params.next : undefined, "/app");
  if (await getCurrentSession()) redirect(next);
  return (
    <>
      <PublicHeader />
      <main id="main" className="auth-wrap">
        <div className="card auth-card">
          <h1>Two-factor sign-in</h1>
          <p className="lead">Enter the code from your authenticator app to finish signing in.</p>
          <TwoFactorSignInForms next={next} />
          <p className="alt">
            <Link href="/sign-in">Start over</Link>
          </p>
        </div>
      </main>
    </>
  );
}
