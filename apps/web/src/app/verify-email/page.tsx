import type { Metadata } from "next";
import Link from "next/link";
import { PublicHeader } from "@/components/public-header.js";
import { VerifyEmailForm } from "@/features/orgs/accounts/recovery-forms.js";
import { safeNext } from "@/features/orgs/accounts/safe-next.js";

export const metadata: Metadata = { title: "Confirm your email address" };
export const dynamic = "force-dynamic";

/**
 * The link of a verification mail lands here; the address is confirmed only by the button (a POST),
 * so mail scanners that open links do not use it up.
 */
export default async function VerifyEmailPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : "";
  const next = safeNext(typeof params.next === "string" ? params.next : undefined, "");
  return (
    <>
      <PublicHeader />
      <main id="main" className="auth-wrap">
        <div className="card auth-card">
          <h1>Confirm your email address</h1>
          {token ? (
            <VerifyEmailForm token={token} next={next || undefined} />
          ) : (
            <p className="lead">
              This link is not complete. <Link href="/app/account">Send yourself a new one</Link>.
            </p>
          )}
        </div>
      </main>
    </>
  );
}
