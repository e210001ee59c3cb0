import nodemailer from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool/index.js";
import { escapeHtml, kindLabel, renderPlainText, type NotificationMessage } from "./message.js";
import { failed, succeeded, type SendOutcome } from "./outcome.js";

/**
 * The server's SMTP relay (operator configuration, never user-supplied: email channels only name
 * recipients). `url` is smtp://[user:pass@]host[:port] (STARTTLS when offered) or smtps:// (implicit TLS).
 */
export interface SmtpSettings {
  url: string;
  from: string;
  /** Keep up to `maxConnections` connections open and reuse them. Default true. */
  pool?: boolean;
  maxConnections?: number;
  /** Refuse to send unless STARTTLS succeeds (smtp:// only). Default false. */
  requireTls?: boolean;
  /** Verify the server certificate. Default true; false only for self-signed test relays. */
  rejectUnauthorized?: boolean;
  connectionTimeoutMs?: number;
}

export interface EmailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string | undefined;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: EmailMessage): Promise<SendOutcome>;
  close(): void;
}

function transportOptions(settings: SmtpSettings): SMTPPool.Options {
  const url = new URL(settings.url);
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
    throw new Error(`SMTP URL must be smtp:// or smtps://, not ${url.protocol}`);
  }
  const secure = url.protocol === "smtps:";
  const timeout = settings.connectionTimeoutMs ?? 10_000;
  return {
    pool: true,
    maxConnections: settings.pool === false ? 1 : (settings.maxConnections ?? 3),
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: settings.requireTls ?? false,
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    tls: { rejectUnauthorized: settings.rejectUnauthorized ?? true, servername: url.hostname },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 3,
  };
}

/** SMTP reply 4xx and network trouble are transient; 5xx replies and auth failures are final. */
function outcomeOfError(error: unknown): SendOutcome {
  const e = error as { responseCode?: unknown; code?: unknown; message?: unknown };
  const responseCode = typeof e.responseCode === "number" ? e.responseCode : null;
  const code = typeof e.code === "string" ? e.code : "";
  const message = typeof e.message === "string" ? e.message : String(error);
  const text = `${code ? `${code}: ` : ""}${message}`;
  if (responseCode !== null) return failed(text, responseCode < 500, responseCode);
  if (code === "EAUTH" || code === "EENVELOPE" || code === "EMESSAGE") return failed(text, false);
  return failed(text, true);
}

/** One pooled transport for the process (the delivery worker keeps it for its lifetime). */
export function createMailer(settings: SmtpSettings): Mailer {
  const transport = nodemailer.createTransport(transportOptions(settings));
  return {
    async send(message) {
      try {
        const info = await transport.sendMail({
          from: settings.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
          ...(message.headers ? { headers: message.headers } : {}),
        });
        const accepted = info.accepted.length;
        if (accepted === 0) return failed(`no recipient accepted: ${info.response}`, false);
        return succeeded(250, `${info.messageId} accepted by ${accepted} recipient(s)`);
      } catch (error) {
        return outcomeOfError(error);
      }
    },
    close() {
      transport.close();
    },
  };
}

/** Send one email with a short-lived connection (tests, one-offs). Prefer a long-lived createMailer. */
export async function sendEmail(settings: SmtpSettings, message: EmailMessage): Promise<SendOutcome> {
  const mailer = createMailer({ ...settings, pool: false });
  try {
    return await mailer.send(message);
  } finally {
    mailer.close();
  }
}

/** An alert notification as an email (plain text + simple HTML). */
export function formatAlertEmail(message: NotificationMessage, to: string[]): EmailMessage {
  const rows = message.fields
    .map(
      (f) =>
        `<tr><td style="color:#667;padding-right:12px">${escapeHtml(f.name)}</td><td>${escapeHtml(f.value)}</td></tr>`,
    )
    .join("");
  const colour = message.kind === "resolved" ? "#1f7a4d" : message.kind === "degraded" ? "#a86b00" : "#b42318";
  const html = [
    `<p style="font:600 15px system-ui;color:${colour}">${kindLabel(message.kind)}: ${escapeHtml(message.title)}</p>`,
    `<p style="font:14px system-ui;white-space:pre-line">${escapeHtml(message.body)}</p>`,
    rows ? `<table style="font:13px system-ui">${rows}</table>` : "",
    message.url ? `<p style="font:13px system-ui"><a href="${escapeHtml(message.url)}">Open in RPC Pulse</a></p>` : "",
  ].join("");
  return {
    to,
    subject: `[${kindLabel(message.kind)}] ${message.title}`,
    text: renderPlainText(message),
    html,
    headers: { "X-RpcPulse-Event": message.eventId },
  };
}
