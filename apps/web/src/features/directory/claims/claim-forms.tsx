"use client";
import { useActionState } from "react";
import { Field } from "@/components/field.js";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { claimEndpointAction, verifyClaimAction, withdrawClaimAction } from "./actions.js";

export function ClaimEndpointForm({ slug, endpoint }: { slug: string; endpoint?: string }) {
  const [state, action] = useActionState(claimEndpointAction, IDLE);
  return (
    <form action={action} className="stack" noValidate>
      <input type="hidden" name="slug" value={slug} />
      <Field
        name="endpoint"
        label="Endpoint URL or id"
        required
        maxLength={2048}
        defaultValue={state.values?.endpoint ?? endpoint ?? ""}
        placeholder="https://api.example.org"
        hint="As listed in the public directory."
        error={state.fieldErrors?.endpoint}
      />
      <div>
        <SubmitButton pendingText="Claiming…">Claim endpoint</SubmitButton>
      </div>
      <FormNotice state={state} />
    </form>
  );
}

const VERIFY_LABEL = { dns: "Verify DNS record", "well-known": "Verify well-known file" } as const;

function VerifyForm({ slug, claimId, method }: { slug: string; claimId: string; method: keyof typeof VERIFY_LABEL }) {
  const [state, action] = useActionState(verifyClaimAction, IDLE);
  return (
    <form action={action} className="claim-verify">
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="claimId" value={claimId} />
      <input type="hidden" name="method" value={method} />
      <SubmitButton className="secondary small" pendingText="Checking…">
        {VERIFY_LABEL[method]}
      </SubmitButton>
      {state.data?.checked ? null : <FormNotice state={state} />}
    </form>
  );
}

/** One button per proof the claim can use: the TXT record (DNS names only) and the well-known file. */
export function VerifyClaimButtons(props: { slug: string; claimId: string; dns: boolean; wellKnown: boolean }) {
  return (
    <div className="claim-actions">
      {props.dns ? <VerifyForm slug={props.slug} claimId={props.claimId} method="dns" /> : null}
      {props.wellKnown ? <VerifyForm slug={props.slug} claimId={props.claimId} method="well-known" /> : null}
    </div>
  );
}

export function WithdrawClaimButton({ slug, claimId, url }: { slug: string; claimId: string; url: string }) {
  const [state, action] = useActionState(withdrawClaimAction, IDLE);
  return (
    <form action={action}>
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="claimId" value={claimId} />
      <SubmitButton className="danger small" pendingText="Withdrawing…">
        <span aria-label={`Withdraw the claim on ${url}`}>Withdraw</span>
      </SubmitButton>
      {state.status === "error" ? <FormNotice state={state} /> : null}
    </form>
  );
}
