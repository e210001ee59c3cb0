import type { Metadata } from "next";
import Link from "next/link";
import { PublicHeader } from "@/components/public-header.js";
import { signOutAction } from "@/features/orgs/accounts/actions.js";
import { getCurrentSession } from "@/server/session.js";

export const metadata: Metadata = { title: "Sign out" };
export const dynamic = "force-dynamic";

/** Signing out is a POST (a link or prefetch must never end a session). */
export default async function SignOutPage() {
  const session = await getCurrentSession();
  return (
    <>
      <PublicHeader />
      <main id="main" className="auth-wrap">
        <div className="card auth-card">
          <h1>Sign out</h1>
          {session ? (
            <>
              <p className="lead">
                Signed in as <strong>{session.email}</strong>.
              </p>
              <form action={signOutAction} className="stack">
                <div>
                  <button type="submit">Sign out</button>
                </div>
              </form>
            </>
          ) : (
            <p className="lead">
              You are not signed in. <Link href="/sign-in">Sign in</Link>
            </p>
          )}
        </div>
      </main>
    </>
  );
}
