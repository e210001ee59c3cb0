"use client";
import { useActionState } from "react";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { acceptInvitationAction } from "./actions.js";

export function AcceptInvitationForm({ invitationId }: { invitationId: string }) {
  const [state, action] = useActionState(acceptInvitationAction, IDLE);
  return (
    <form action={action} className="stack">
      <FormNotice state={state} />
      <input type="hidden" name="invitationId" value={invitationId} />
      <div>
        <SubmitButton pendingText="Joining…">Accept invitation</SubmitButton>
      </div>
    </form>
  );
}
