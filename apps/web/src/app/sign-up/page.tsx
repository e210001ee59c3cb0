import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { MIN_PASSWORD_LENGTH } from "@rpcpulse/auth";
import { PublicHeader } from "@/components/public-header.js";
import { SignUpForm } from "@/features/orgs/accounts/sign-up-form.js";
import { getCurrentSession } from "@/server/session.js";

export const metadata: Metadata = { title: "Create account" };
export const dynamic = "force-dynamic";

export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const next = typeof params.next === "string" ? params.next : undefined;
  if (await getCurrentSession()) redirect("/app");
  return (
    <>
      <PublicHeader />
      <main id="main" className="auth-wrap">
        <div className="card auth-card">
          <h1>Create your account</h1>
          <p className="lead">Then create an organization for your fleet, or accept an invitation.</p>
          <SignUpForm next={next} minPasswordLength={MIN_PASSWORD_LENGTH} />
        </div>
      </main>
    </>
  );
}
