"use client";
import { useActionState } from "react";
import { IDLE } from "@/server/form-state.js";
import { deleteMemberAction, updateMemberRoleAction, cancelInvitationAction } from "./actions.js";

export function MemberActions(props: {
  slug: string;
  memberId: string;
  role: string;
  name: string;
  canSetOwner: boolean;
}) {
  const [roleState, roleAction] = useActionState(updateMemberRoleAction, IDLE);
  const [removeState, removeAction] = useActionState(deleteMemberAction, IDLE);
  const error = [roleState, removeState].find((s) => s.status === "error")?.message;
  return (
    <>
      <form action={roleAction}>
        <input type="hidden" name="slug" value={props.slug} />
        <input type="hidden" name="memberId" value={props.memberId} />
        <select
          id={`role-${props.memberId}`}
          name="role"
          defaultValue={props.role}
          className="small"
          aria-label={`Role of ${props.name}`}
        >
          <option value="viewer">Viewer</option>
          <option value="admin">Admin</option>
          {props.canSetOwner || props.role === "owner" ? <option value="owner">Owner</option> : null}
        </select>
        <button type="submit" className="small secondary">
          Save
        </button>
      </form>
      <form action={removeAction}>
        <input type="hidden" name="slug" value={props.slug} />
        <input type="hidden" name="memberId" value={props.memberId} />
        <button type="submit" className="small danger" aria-label={`Remove ${props.name}`}>
          Remove
        </button>
      </form>
      {error ? (
        <div className="notice error small" role="alert">
          {error}
        </div>
      ) : null}
    </>
  );
}

export function CancelInvitationButton({
  slug,
  invitationId,
  email,
}: {
  slug: string;
  invitationId: string;
  email: string;
}) {
  const [state, action] = useActionState(cancelInvitationAction, IDLE);
  return (
    <form action={action}>
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="invitationId" value={invitationId} />
      <button type="submit" className="small secondary" aria-label={`Cancel invitation for ${email}`}>
        Cancel
      </button>
      {state.status === "error" ? (
        <span className="small" role="alert">
          {state.message}
        </span>
      ) : null}
    </form>
  );
}
