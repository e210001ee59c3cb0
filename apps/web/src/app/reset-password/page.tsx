import type { Metadata } from "next";
import Link from "next/link";
import { checkPasswordResetLink, MIN_PASSWORD_LENGTH } from "@rpcpulse/auth";
import { PublicHeader } from "@/components/public-header.js";
import { ResetPasswordForm } from "@/features/orgs/accounts/recovery-forms.js";
import { getRuntime } from "@/server/runtime.js";

export const metadata: Metadata = { title: "Choose a new password" };
export const dynamic = "force-dynamic";

export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const token = typeof params.token === "string" ? params.token : "";
  const state = token ? await checkPasswordResetLink(getRuntime().auth, token) : "invalid";
  return (
    <>
      <PublicHeader />
      <main id="main" className="auth-wrap">
        <div className="card auth-card">
          {state === "valid" ? (
            <>
              <h1>Choose a new password</h1>
              <ResetPasswordForm token={token} minPasswordLength={MIN_PASSWORD_LENGTH} />
            </>
          ) : (
            <>
              <h1>{state === "expired" ? "This link has expired" : "This link does not work"}</h1>
              <p className="lead">
                {state === "expired"
                  ? "Reset links work for one hour."
                  : "Reset links work once; this one was already used or is not complete."}{" "}
                Request a new one.
              </p>
              <p>
                <Link className="button" href="/forgot-password">
                  Request a new link
                </Link>
              </p>
            </>
          )}
        </div>
      </main>
    </>
  );
}
