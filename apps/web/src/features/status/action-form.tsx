"use client";
import { useActionState, type ReactNode } from "react";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE, type FormState } from "@/server/form-state.js";

/**
 * One form of the status-page admin: posts to a server action, shows its message and the first
 * field error next to the button. Hidden inputs carry the org slug and ids.
 */
export function ActionForm(props: {
  action: (prev: FormState, formData: FormData) => Promise<FormState>;
  hidden: Record<string, string>;
  submit: string;
  children?: ReactNode;
  className?: string;
  danger?: boolean;
  testId?: string;
}) {
  const [state, formAction] = useActionState(props.action, IDLE);
  const fieldErrors = state.fieldErrors ? Object.entries(state.fieldErrors) : [];
  return (
    <form action={formAction} className={props.className ?? "stack"} data-testid={props.testId}>
      {Object.entries(props.hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {props.children}
      {fieldErrors.length > 0 ? (
        <ul className="error small" role="alert">
          {fieldErrors.map(([field, message]) => (
            <li key={field}>
              {field}: {message}
            </li>
          ))}
        </ul>
      ) : null}
      <FormNotice state={state} />
      <SubmitButton className={props.danger ? "button danger small" : "button small"}>{props.submit}</SubmitButton>
    </form>
  );
}
