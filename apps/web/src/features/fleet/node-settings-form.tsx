"use client";
import { useActionState } from "react";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { deleteNodeAction, updateNodeAction } from "./actions.js";
import { NodeFields, type NodeFieldValues } from "./node-fields.js";

export function NodeSettingsForm({ slug, nodeId, values }: { slug: string; nodeId: string; values: NodeFieldValues }) {
  const [state, action] = useActionState(updateNodeAction, IDLE);
  return (
    <form action={action} className="stack" noValidate>
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="nodeId" value={nodeId} />
      <NodeFields values={state.values ?? values} errors={state.fieldErrors} />
      <div>
        <SubmitButton pendingText="Saving…">Save settings</SubmitButton>
      </div>
      <FormNotice state={state} />
    </form>
  );
}

export function DeleteNodeForm({ slug, nodeId, name }: { slug: string; nodeId: string; name: string }) {
  const [state, action] = useActionState(deleteNodeAction, IDLE);
  return (
    <form action={action} className="inline" noValidate>
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="nodeId" value={nodeId} />
      <div className="field">
        <label htmlFor="confirm-delete">
          Type <code>delete</code> to remove {name} and its tokens
        </label>
        <input id="confirm-delete" name="confirm" type="text" autoComplete="off" />
      </div>
      <SubmitButton className="danger" pendingText="Deleting…">
        Delete node
      </SubmitButton>
      <FormNotice state={state} />
    </form>
  );
}
