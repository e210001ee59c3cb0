"use client";
import Link from "next/link";
import { useActionState } from "react";
import { Field } from "@/components/field.js";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { signUpAction } from "./actions.js";

export function SignUpForm({ next, minPasswordLength }: { next?: string; minPasswordLength: number }) {
  const [state, action] = useActionState(signUpAction, IDLE);
  return (
    <form action={action} className="stack" noValidate>
      <FormNotice state={state} />
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <Field
        name="name"
        label="Name"
        autoComplete="name"
        required
        maxLength={100}
        defaultValue={state.values?.name}
        error={state.fieldErrors?.name}
      />
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
        autoComplete="new-password"
        required
        minLength={minPasswordLength}
        hint={`At least ${minPasswordLength} characters.`}
        error={state.fieldErrors?.password}
      />
      <SubmitButton pendingText="Creating account…">Create account</SubmitButton>
      <p className="alt">
        Already have an account?{" "}
        <Link href={next ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in"}>Sign in</Link>
      </p>
    </form>
  );
}
