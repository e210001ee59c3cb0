"use client";
import { useActionState } from "react";
import { Field } from "@/components/field.js";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { createOrganizationAction } from "./actions.js";

export function CreateOrgForm() {
  const [state, action] = useActionState(createOrganizationAction, IDLE);
  return (
    <form action={action} className="stack" noValidate>
      <FormNotice state={state} />
      <Field
        name="name"
        label="Organization name"
        required
        maxLength={80}
        placeholder="Acme validators"
        defaultValue={state.values?.name}
        error={state.fieldErrors?.name}
      />
      <Field
        name="slug"
        label="URL name"
        required
        maxLength={48}
        placeholder="acme-validators"
        hint="Lowercase letters, digits and hyphens; used in links."
        defaultValue={state.values?.slug}
        error={state.fieldErrors?.slug}
      />
      <div>
        <SubmitButton pendingText="Creating…">Create organization</SubmitButton>
      </div>
    </form>
  );
}
