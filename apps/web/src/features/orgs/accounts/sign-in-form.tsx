"use client";
import Link from "next/link";
import { useActionState } from "react";
import { Field } from "@/components/field.js";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { signInAction } from "./actions.js";

export function SignInForm({ next }: { next?: string }) {
  const [state, action] = useActionState(signInAction, IDLE);
  return (
    <form action={action} className="stack" noValidate>
      <FormNotice state={state} />
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <Field
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        defaultValue={state.values?.email}
        error={state.fieldErrors?.email}
      />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        error={state.fieldErrors?.password}
      />
      <SubmitButton pendingText="Signing in…">Sign in</SubmitButton>
      <p className="alt">
        <Link href="/forgot-password">Forgot password?</Link>
      </p>
      <p className="alt">
        New here? <Link href={next ? `/sign-up?next=${encodeURIComponent(next)}` : "/sign-up"}>Create an account</Link>
      </p>
    </form>
  );
}
