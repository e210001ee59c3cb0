"use client";
import { useActionState, useState } from "react";
import { FormNotice } from "@/components/form-notice.js";
import { SubmitButton } from "@/components/submit-button.js";
import { IDLE } from "@/server/form-state.js";
import { createChannelAction } from "./actions.js";
import { Field, SelectField } from "@/components/field.js";

const TYPES = [
  { value: "email", label: "Email" },
  { value: "webhook", label: "Webhook (HMAC-signed)" },
  { value: "slack", label: "Slack incoming webhook" },
  { value: "discord", label: "Discord webhook" },
  { value: "telegram", label: "Telegram bot" },
];

export function ChannelForm({ slug }: { slug: string }) {
  const [state, action] = useActionState(createChannelAction, IDLE);
  const [type, setType] = useState("email");
  const err = state.fieldErrors ?? {};
  const v = state.values ?? {};
  return (
    <div>
      <form action={action} className="stack" noValidate data-testid="channel-form">
        <input type="hidden" name="slug" value={slug} />
        <div className="form-grid">
          <Field id="ch-name" name="name" label="Name" maxLength={80} defaultValue={v.name} error={err.name} />
          <SelectField id="ch-type" name="type" label="Type" value={type} onChange={setType} options={TYPES} />
        </div>
        {type === "email" ? (
          <Field
            id="ch-to"
            name="to"
            label="Recipients"
            placeholder="ops@example.com, oncall@example.com"
            defaultValue={v.to}
            hint="Sent through this server's SMTP relay."
            error={err.to}
          />
        ) : type === "telegram" ? (
          <div className="form-grid">
            <Field
              id="ch-bot"
              name="botToken"
              label="Bot token"
              autoComplete="off"
              placeholder="123456:ABC-DEF…"
              error={err.botToken}
            />
            <Field
              id="ch-chat"
              name="chatId"
              label="Chat id"
              defaultValue={v.chatId}
              placeholder="-1001234567890 or @channel"
              error={err.chatId}
            />
          </div>
        ) : (
          <Field
            id="ch-url"
            name="url"
            label="URL"
            type="url"
            autoComplete="off"
            placeholder="https://"
            hint={
              type === "webhook"
                ? "We POST JSON signed with X-RpcPulse-Signature (HMAC-SHA256); the secret is shown once after saving."
                : "Stored encrypted; only its host is shown afterwards."
            }
            error={err.url}
          />
        )}
        <div>
          <SubmitButton pendingText="Adding…">Add channel</SubmitButton>
        </div>
        <FormNotice state={state} />
      </form>
      {state.status === "ok" && state.data?.signingSecret ? (
        <div className="copy-box">
          <label htmlFor="ch-secret" className="small muted">
            Signing secret (shown once)
          </label>
          <input id="ch-secret" type="text" readOnly value={state.data.signingSecret} data-testid="signing-secret" />
        </div>
      ) : null}
    </div>
  );
}
