import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { DEMO_EMAIL, DEMO_PASSWORD } from "@rpcpulse/auth";
import { PublicHeader } from "@/components/public-header.js";
import { SignInForm } from "@/features/orgs/accounts/sign-in-form.js";
import { getRuntime } from "@/server/runtime.js";
import { getCurrentSession } from "@/server/session.js";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const next = typeof params.next === "string" ? params.next : undefined;
  if (await getCurrentSession()) redirect(next && next.startsWith("/") && !next.startsWith("//") ? next : "/app");
  const demo = getRuntime().env.DEMO_MODE;
  return (
    <>
      <PublicHeader />
      <main id="main" className="auth-wrap">
        <div className="card auth-card">
          <h1>Sign in</h1>
          <p className="lead">Welcome back to RPC Pulse.</p>
          {params.signedOut ? (
            <div className="notice info" role="status">
              You are signed out.
            </div>
          ) : null}
          {params.reset ? (
            <div className="notice ok" role="status">
              Your password was changed and every session signed out. Sign in with the new password.
            </div>
          ) : null}
          {demo ? (
            <div className="notice info" role="note">
              Demo: sign in as <code>{DEMO_EMAIL}</code> with password <code>{DEMO_PASSWORD}</code>.
            </div>
          ) : null}
          <SignInForm next={next} />
        </div>
      </main>
    </>
  );
}
