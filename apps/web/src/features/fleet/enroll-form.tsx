"use client";
import Link from "next/link";
import { useActionState } from "react";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { enrollNodeAction } from "./actions.js";
import { NodeFields } from "./node-fields.js";
import { TokenReveal } from "./token-reveal.js";

export function EnrollForm({ slug }: { slug: string }) {
  const [state, action] = useActionState(enrollNodeAction, IDLE);
  if (state.status === "ok" && state.data?.token) {
    return (
      <div className="stack-gap">
        <FormNotice state={state} />
        <TokenReveal data={state.data} />
        <p>
          <Link className="button" href={`/app/o/${slug}/nodes/${state.data.nodeId}`}>
            Go to {state.data.nodeName}
          </Link>{" "}
          <span className="muted small">It shows “waiting for first batch” until the agent reports in.</span>
        </p>
      </div>
    );
  }
  return (
    <form action={action} className="stack" noValidate>
      <input type="hidden" name="slug" value={slug} />
      <NodeFields values={state.values ?? {}} errors={state.fieldErrors} />
      <div>
        <SubmitButton pendingText="Enrolling…">Enroll node</SubmitButton>
      </div>
      <FormNotice state={state} />
    </form>
  );
}
