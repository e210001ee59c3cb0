"use client";
import { useActionState } from "react";
import { Field } from "@/components/field.js";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { submitEndpointAction } from "./submit-action.js";

export interface NetworkOption {
  slug: string;
  name: string;
  families: readonly string[];
}

export function SubmitEndpointForm({ networks }: { networks: readonly NetworkOption[] }) {
  const [state, action] = useActionState(submitEndpointAction, IDLE);
  const v = state.values ?? {};
  const families = [...new Set(networks.flatMap((n) => n.families))];
  return (
    <form action={action} className="stack" noValidate>
      <Field
        name="url"
        label="Endpoint URL"
        type="url"
        required
        maxLength={2048}
        placeholder="https://api.example.org"
        defaultValue={v.url}
        hint="http(s), public address, no query string."
        error={state.fieldErrors?.url}
      />
      <div className="field">
        <label htmlFor="f-network">Network</label>
        <select id="f-network" name="network" defaultValue={v.network ?? networks[0]?.slug} required>
          {networks.map((n) => (
            <option key={n.slug} value={n.slug}>
              {n.name}
            </option>
          ))}
        </select>
        {state.fieldErrors?.network ? <span className="error">{state.fieldErrors.network}</span> : null}
      </div>
      <div className="field">
        <label htmlFor="f-family">API</label>
        <select id="f-family" name="family" defaultValue={v.family ?? ""}>
          <option value="">The network&apos;s usual one</option>
          {families.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
        {state.fieldErrors?.family ? <span className="error">{state.fieldErrors.family}</span> : null}
      </div>
      <Field
        name="name"
        label="Name (optional)"
        maxLength={120}
        defaultValue={v.name}
        error={state.fieldErrors?.name}
      />
      <Field
        name="provider"
        label="Provider (optional)"
        maxLength={120}
        defaultValue={v.provider}
        error={state.fieldErrors?.provider}
      />
      <div>
        <SubmitButton pendingText="Submitting…">Submit endpoint</SubmitButton>
      </div>
      <FormNotice state={state} />
      {state.status === "ok" && state.data?.id ? (
        <p className="small">
          <a href={`/directory/endpoints/${state.data.id}`} data-testid="submitted-link">
            See the endpoint page
          </a>
        </p>
      ) : null}
    </form>
  );
}
