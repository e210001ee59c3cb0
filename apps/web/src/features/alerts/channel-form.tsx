"use client";
import { useActionState, useState } from "react";
import { FormNotice } from "../../components/form-notice.js";
import { SubmitButton } from "../../components/submit-button.js";
import { IDLE } from "../../server/form-state.js";
import { createChannelAction } from "./actions.js";

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
          <div className="field">
            <label htmlFor="ch-name">Name</label>
            <input
              id="ch-name"
              type="text"
              name="name"
              maxLength={80}
              defaultValue={v.name}
              aria-invalid={err.name ? true : undefined}
            />
            {err.name ? <span className="error">{err.name}</span> : null}
          </div>
          <div className="field">
            <label htmlFor="ch-type">Type</label>
            <select id="ch-type" name="type" value={type} onChange={(e) => setType(e.target.value)}>
              {TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        {type === "email" ? (
          <div className="field">
            <label htmlFor="ch-to">Recipients</label>
            <input
              id="ch-to"
              type="text"
              name="to"
              placeholder="ops@example.com, oncall@example.com"
              defaultValue={v.to}
              aria-invalid={err.to ? true : undefined}
            />
            <span className="hint">Sent through this server&apos;s SMTP relay.</span>
            {err.to ? <span className="error">{err.to}</span> : null}
          </div>
        ) : type === "telegram" ? (
          <div className="form-grid">
            <div className="field">
              <label htmlFor="ch-bot">Bot token</label>
              <input
                id="ch-bot"
                type="text"
                name="botToken"
                autoComplete="off"
                placeholder="123456:ABC-DEF…"
                aria-invalid={err.botToken ? true : undefined}
              />
              {err.botToken ? <span className="error">{err.botToken}</span> : null}
            </div>
            <div className="field">
              <label htmlFor="ch-chat">Chat id</label>
              <input
                id="ch-chat"
                type="text"
                name="chatId"
                defaultValue={v.chatId}
                placeholder="-1001234567890 or @channel"
                aria-invalid={err.chatId ? true : undefined}
              />
              {err.chatId ? <span className="error">{err.chatId}</span> : null}
            </div>
          </div>
        ) : (
          <div className="field">
            <label htmlFor="ch-url">URL</label>
            <input
              id="ch-url"
              name="url"
              type="url"
              autoComplete="off"
              placeholder="https://"
              aria-invalid={err.url ? true : undefined}
            />
            <span className="hint">
              {type === "webhook"
                ? "We POST JSON signed with X-RpcPulse-Signature (HMAC-SHA256); the secret is shown once after saving."
                : "Stored encrypted; only its host is shown afterwards."}
            </span>
            {err.url ? <span className="error">{err.url}</span> : null}
          </div>
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
