"use client";
import { useActionState } from "react";
import { Field } from "@/components/field.js";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { inviteMemberAction } from "./actions.js";

export function InviteForm({ slug, canInviteOwner }: { slug: string; canInviteOwner: boolean }) {
  const [state, action] = useActionState(inviteMemberAction, IDLE);
  return (
    <div>
      <form action={action} className="stack" noValidate>
        <input type="hidden" name="slug" value={slug} />
        <Field name="email" label="Email" type="email" autoComplete="off" required error={state.fieldErrors?.email} />
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" name="role" defaultValue="viewer">
            <option value="viewer">Viewer: read-only</option>
            <option value="admin">Admin: manage fleet and members</option>
            {canInviteOwner ? <option value="owner">Owner: everything, incl. deleting the org</option> : null}
          </select>
        </div>
        <div>
          <SubmitButton pendingText="Inviting…">Create invitation</SubmitButton>
        </div>
        <FormNotice state={state} />
      </form>
      {state.status === "ok" && state.data?.link ? (
        <div className="copy-box">
          <label htmlFor="invite-link" className="small muted">
            Link
          </label>
          <input id="invite-link" type="text" readOnly value={state.data.link} data-testid="invite-link" />
        </div>
      ) : null}
    </div>
  );
}
