"use client";
import Link from "next/link";
import { useActionState } from "react";
import { Field } from "@/components/field.js";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import {
  requestPasswordResetAction,
  resendVerificationAction,
  resetPasswordAction,
  verifyEmailAction,
} from "./recovery-actions.js";

export function ForgotPasswordForm() {
  const [state, action] = useActionState(requestPasswordResetAction, IDLE);
  return (
    <form action={action} className="stack" noValidate>
      <FormNotice state={state} />
      <Field
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        defaultValue={state.values?.email}
        error={state.fieldErrors?.email}
      />
      <SubmitButton pendingText="Sending…">Email me a reset link</SubmitButton>
      <p className="alt">
        Remembered it? <Link href="/sign-in">Sign in</Link>
      </p>
    </form>
  );
}

export function ResetPasswordForm({ token, minPasswordLength }: { token: string; minPasswordLength: number }) {
  const [state, action] = useActionState(resetPasswordAction, IDLE);
  return (
    <form action={action} className="stack" noValidate>
      <FormNotice state={state} />
      <input type="hidden" name="token" value={token} />
      <Field
        name="newPassword"
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        minLength={minPasswordLength}
        hint={`At least ${minPasswordLength} characters. Every session of your account is signed out.`}
        error={state.fieldErrors?.newPassword}
      />
      <SubmitButton pendingText="Saving…">Set new password</SubmitButton>
    </form>
  );
}

export function VerifyEmailForm({ token, next }: { token: string; next?: string | undefined }) {
  const [state, action] = useActionState(verifyEmailAction, IDLE);
  if (state.status === "ok") {
    return (
      <div className="stack">
        <FormNotice state={state} />
        <p>
          <Link className="button" href={state.data?.next ?? "/app"}>
            Continue
          </Link>
        </p>
      </div>
    );
  }
  return (
    <form action={action} className="stack">
      <FormNotice state={state} />
      <input type="hidden" name="token" value={token} />
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <div>
        <SubmitButton pendingText="Confirming…">Confirm my email address</SubmitButton>
      </div>
    </form>
  );
}

export function ResendVerificationForm({ next, label }: { next?: string | undefined; label?: string }) {
  const [state, action] = useActionState(resendVerificationAction, IDLE);
  return (
    <form action={action} className="inline-form">
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <SubmitButton className="small" pendingText="Sending…">
        {label ?? "Send a new link"}
      </SubmitButton>{" "}
      <FormNotice state={state} />
    </form>
  );
}
