"use client";
import { useActionState } from "react";
import { Field } from "@/components/field.js";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import {
  backupCodeSignInAction,
  confirmTwoFactorAction,
  disableTwoFactorAction,
  enableTwoFactorAction,
  twoFactorSignInAction,
} from "./two-factor-actions.js";

export function TwoFactorSignInForms({ next }: { next: string }) {
  const [state, action] = useActionState(twoFactorSignInAction, IDLE);
  const [backupState, backupAction] = useActionState(backupCodeSignInAction, IDLE);
  return (
    <div className="stack">
      <form action={action} className="stack" noValidate>
        <FormNotice state={state} />
        <input type="hidden" name="next" value={next} />
        <Field
          name="code"
          label="Authentication code"
          autoComplete="one-time-code"
          required
          maxLength={7}
          hint="The 6-digit code your authenticator app shows for RPC Pulse."
          error={state.fieldErrors?.code}
        />
        <SubmitButton pendingText="Checking…">Verify</SubmitButton>
      </form>
      <details>
        <summary>Use a backup code instead</summary>
        <form action={backupAction} className="stack" noValidate>
          <FormNotice state={backupState} />
          <input type="hidden" name="next" value={next} />
          <Field
            name="code"
            label="Backup code"
            autoComplete="off"
            required
            maxLength={11}
            hint="Each backup code works once."
            error={backupState.fieldErrors?.code}
          />
          <SubmitButton className="secondary" pendingText="Checking…">
            Sign in with backup code
          </SubmitButton>
        </form>
      </details>
    </div>
  );
}

function ConfirmTwoFactorForm() {
  const [state, action] = useActionState(confirmTwoFactorAction, IDLE);
  if (state.status === "ok") return <FormNotice state={state} />;
  return (
    <form action={action} className="stack" noValidate>
      <FormNotice state={state} />
      <Field
        name="code"
        label="Code from the app"
        autoComplete="one-time-code"
        required
        maxLength={7}
        error={state.fieldErrors?.code}
      />
      <div>
        <SubmitButton pendingText="Checking…">Turn on two-factor sign-in</SubmitButton>
      </div>
    </form>
  );
}

/** Account page: set-up (password → QR code, URI, backup codes → first code) or turning it off. */
export function TwoFactorSettings({ enabled, demo }: { enabled: boolean; demo: boolean }) {
  const [enableState, enableAction] = useActionState(enableTwoFactorAction, IDLE);
  const [disableState, disableAction] = useActionState(disableTwoFactorAction, IDLE);
  if (enabled && disableState.status !== "ok") {
    return (
      <form action={disableAction} className="stack" noValidate>
        <p>
          <span className="badge ok">On</span> Sign-in asks for a code from your authenticator app.
        </p>
        <FormNotice state={disableState} />
        <Field
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          hint="Turning it off needs your password."
          error={disableState.fieldErrors?.password}
        />
        <div>
          <SubmitButton className="secondary" pendingText="Turning off…">
            Turn off two-factor sign-in
          </SubmitButton>
        </div>
      </form>
    );
  }
  if (enableState.status === "ok" && enableState.data) {
    const { qr, uri, backupCodes } = enableState.data;
    return (
      <div className="stack" data-testid="two-factor-setup">
        <FormNotice state={enableState} />
        <img src={qr} alt="QR code of your two-factor secret" width={200} height={200} />
        <div className="copy-box">
          <label htmlFor="totp-uri" className="small muted">
            Or enter this in the app
          </label>
          <input id="totp-uri" type="text" readOnly value={uri} data-testid="totp-uri" />
        </div>
        <div>
          <p className="small">
            <strong>Backup codes</strong>: each works once if you lose the app. Store them now; they are not shown
            again.
          </p>
          <pre className="backup-codes" data-testid="backup-codes">
            {backupCodes}
          </pre>
        </div>
        <ConfirmTwoFactorForm />
      </div>
    );
  }
  return (
    <form action={enableAction} className="stack" noValidate>
      <p className="muted">{disableState.status === "ok" ? disableState.message : "Off."}</p>
      <FormNotice state={enableState} />
      {demo ? (
        <p className="small muted">The shared demo account cannot turn this on.</p>
      ) : (
        <>
          <Field
            name="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            hint="Ask for a code from an authenticator app at every sign-in."
            error={enableState.fieldErrors?.password}
          />
          <div>
            <SubmitButton pendingText="Preparing…">Set up two-factor sign-in</SubmitButton>
          </div>
        </>
      )}
    </form>
  );
}
