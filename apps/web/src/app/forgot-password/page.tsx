import type { Metadata } from "next";
import { PublicHeader } from "@/components/public-header.js";
import { ForgotPasswordForm } from "@/features/orgs/accounts/recovery-forms.js";
import { getRuntime } from "@/server/runtime.js";

export const metadata: Metadata = { title: "Forgot password" };
export const dynamic = "force-dynamic";

export default function ForgotPasswordPage() {
  const mail = Boolean(getRuntime().mailer);
  return (
    <>
      <PublicHeader />
      <main id="main" className="auth-wrap">
        <div className="card auth-card">
          <h1>Forgot your password?</h1>
          {mail ? (
            <>
              <p className="lead">
                Enter the email address of your account and we will send you a link to choose a new one.
              </p>
              <ForgotPasswordForm />
            </>
          ) : (
            <div className="notice info" role="note">
              This server is not set up to send email, so a password cannot be reset by email here. Ask your
              administrator to reset it for you.
            </div>
          )}
        </div>
      </main>
    </>
  );
}
