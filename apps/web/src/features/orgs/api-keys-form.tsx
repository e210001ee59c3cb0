"use client";
import { useActionState } from "react";
import { Field } from "@/components/field.js";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { CopyField } from "@/features/fleet/copy-field.js";
import { createApiKeyAction, revokeApiKeyAction } from "./api-keys-actions.js";

/** Create an organization API key; the key is shown once, with a copy button. */
export function ApiKeyCreateForm({ slug }: { slug: string }) {
  const [state, action] = useActionState(createApiKeyAction, IDLE);
  return (
    <div>
      <form action={action} className="stack" noValidate>
        <input type="hidden" name="slug" value={slug} />
        <Field
          name="name"
          label="Name"
          autoComplete="off"
          required
          defaultValue={state.values?.name}
          error={state.fieldErrors?.name}
        />
        <div className="field">
          <label htmlFor="api-key-scope">Scope</label>
          <select id="api-key-scope" name="scope" defaultValue="read">
            <option value="read">Read: GET only</option>
            <option value="write">Write: nodes, tokens, alerts, status pages (as an admin)</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="api-key-expiry">Expires</label>
          <select id="api-key-expiry" name="expiry" defaultValue="90">
            <option value="30">In 30 days</option>
            <option value="90">In 90 days</option>
            <option value="365">In 1 year</option>
            <option value="never">Never</option>
          </select>
        </div>
        <div>
          <SubmitButton pendingText="Creating…">Create API key</SubmitButton>
        </div>
        <FormNotice state={state} />
      </form>
      {state.status === "ok" && state.data?.key ? (
        <CopyField id="api-key-secret" label="API key (shown once)" value={state.data.key} />
      ) : null}
    </div>
  );
}

export function RevokeApiKeyButton({ slug, keyId, name }: { slug: string; keyId: string; name: string }) {
  const [state, action] = useActionState(revokeApiKeyAction, IDLE);
  return (
    <form action={action}>
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="keyId" value={keyId} />
      <button type="submit" className="small danger" aria-label={`Revoke ${name}`}>
        Revoke
      </button>
      {state.status === "error" ? (
        <div className="notice error small" role="alert">
          {state.message}
        </div>
      ) : null}
    </form>
  );
}
