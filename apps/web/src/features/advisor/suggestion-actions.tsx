"use client";
import { useActionState, useState } from "react";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { updateSuggestionAction } from "./actions.js";

type Action = "acknowledge" | "apply" | "dismiss" | "close" | "reopen";

const LABEL: Record<Action, string> = {
  acknowledge: "Acknowledge",
  apply: "Mark applied",
  dismiss: "Dismiss…",
  close: "Close",
  reopen: "Re-open",
};

/** The lifecycle buttons an admin sees on a suggestion; dismiss asks for a reason first. */
export function SuggestionActions(props: { slug: string; suggestionId: string; title: string; actions: Action[] }) {
  const [state, action] = useActionState(updateSuggestionAction, IDLE);
  const [dismissing, setDismissing] = useState(false);
  if (props.actions.length === 0) return null;
  return (
    <div className="advice-actions">
      <div className="advice-buttons">
        {props.actions.map((a) =>
          a === "dismiss" ? (
            <button
              key={a}
              type="button"
              className="secondary small"
              aria-expanded={dismissing}
              onClick={() => setDismissing((v) => !v)}
            >
              {LABEL[a]}
            </button>
          ) : (
            <form key={a} action={action}>
              <input type="hidden" name="slug" value={props.slug} />
              <input type="hidden" name="suggestionId" value={props.suggestionId} />
              <input type="hidden" name="action" value={a} />
              <SubmitButton className={a === "apply" ? "small" : "secondary small"} pendingText="…">
                <span aria-label={`${LABEL[a]}: ${props.title}`}>{LABEL[a]}</span>
              </SubmitButton>
            </form>
          ),
        )}
      </div>
      {dismissing ? (
        <form action={action} className="dismiss-form">
          <input type="hidden" name="slug" value={props.slug} />
          <input type="hidden" name="suggestionId" value={props.suggestionId} />
          <input type="hidden" name="action" value="dismiss" />
          <label htmlFor={`reason-${props.suggestionId}`}>Why does this not apply?</label>
          <input
            id={`reason-${props.suggestionId}`}
            name="reason"
            type="text"
            required
            minLength={3}
            maxLength={500}
            placeholder="e.g. 127.0.0.77 is our own load balancer"
          />
          <SubmitButton className="danger small" pendingText="Dismissing…">
            Dismiss
          </SubmitButton>
        </form>
      ) : null}
      <FormNotice state={state} />
    </div>
  );
}
