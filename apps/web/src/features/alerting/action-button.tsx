"use client";
import { useActionState } from "react";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE, type FormState } from "@/server/form-state.js";

/** A one-button form (enable, disable, delete, test) that shows its outcome next to it. */
export function ActionButton(props: {
  action: (prev: FormState, formData: FormData) => Promise<FormState>;
  fields: Record<string, string>;
  label: string;
  pendingText?: string;
  className?: string;
  confirm?: string;
  testId?: string;
}) {
  const [state, action] = useActionState(props.action, IDLE);
  return (
    <form
      action={action}
      className="inline-action"
      onSubmit={(e) => {
        if (props.confirm && !window.confirm(props.confirm)) e.preventDefault();
      }}
      data-testid={props.testId}
    >
      {Object.entries(props.fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <SubmitButton className={props.className ?? "small"} pendingText={props.pendingText}>
        {props.label}
      </SubmitButton>
      {state.status !== "idle" && state.message ? (
        <span className={`small ${state.status === "ok" ? "ok-text" : "error-text"}`} role="status">
          {state.message}
        </span>
      ) : null}
    </form>
  );
}
