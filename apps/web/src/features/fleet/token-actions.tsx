"use client";
import { useActionState } from "react";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { revokeTokenAction, rotateTokenAction } from "./actions.js";
import { TokenReveal } from "./token-reveal.js";

export function RotateTokenForm({ slug, nodeId }: { slug: string; nodeId: string }) {
  const [state, action] = useActionState(rotateTokenAction, IDLE);
  return (
    <div>
      <form action={action} className="inline">
        <input type="hidden" name="slug" value={slug} />
        <input type="hidden" name="nodeId" value={nodeId} />
        <SubmitButton className="secondary" pendingText="Issuing…">
          Rotate token
        </SubmitButton>
      </form>
      <FormNotice state={state} />
      {state.status === "ok" && state.data ? <TokenReveal data={state.data} /> : null}
    </div>
  );
}

export function RevokeTokenForm({
  slug,
  nodeId,
  tokenId,
  prefix,
}: {
  slug: string;
  nodeId: string;
  tokenId: string;
  prefix: string;
}) {
  const [state, action] = useActionState(revokeTokenAction, IDLE);
  return (
    <form action={action}>
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="nodeId" value={nodeId} />
      <input type="hidden" name="tokenId" value={tokenId} />
      <SubmitButton className="danger small" pendingText="Revoking…">
        <span aria-label={`Revoke token ${prefix}`}>Revoke</span>
      </SubmitButton>
      {state.status === "error" ? <FormNotice state={state} /> : null}
    </form>
  );
}
