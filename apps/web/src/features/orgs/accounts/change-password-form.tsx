"use client";
import { useActionState } from "react";
import { Field } from "@/components/field.js";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { changePasswordAction } from "./actions.js";

export function ChangePasswordForm({ minPasswordLength }: { minPasswordLength: number }) {
  const [state, action] = useActionState(changePasswordAction, IDLE);
  return (
    <form action={action} className="stack" noValidate key={state.status === "ok" ? "done" : "form"}>
      <FormNotice state={state} />
      <Field
        name="currentPassword"
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        error={state.fieldErrors?.currentPassword}
      />
      <Field
        name="newPassword"
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        minLength={minPasswordLength}
        hint={`At least ${minPasswordLength} characters. Changing it signs out all your other sessions.`}
        error={state.fieldErrors?.newPassword}
      />
      <div>
        <SubmitButton pendingText="Changing…">Change password</SubmitButton>
      </div>
    </form>
  );
}
