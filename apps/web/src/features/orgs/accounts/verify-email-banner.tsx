import { ResendVerificationForm } from "./recovery-forms.js";

/** Shown to signed-in users whose address is not confirmed yet (only when the server can send mail). */
export function VerifyEmailBanner({ email }: { email: string }) {
  return (
    <div className="notice info verify-banner" role="status" data-testid="verify-email-banner">
      <span>
        Confirm your email address: we sent a link to <strong>{email}</strong>. You need a confirmed address to join
        organizations you are invited to.
      </span>{" "}
      <ResendVerificationForm />
    </div>
  );
}
