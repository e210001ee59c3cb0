/**
 * Account emails (password reset, email verification, invitations): what they say, and the small
 * mailer contract they are sent through. The web app passes the SMTP mailer of @rpcpulse/notify
 * (the relay alerting uses); with no mailer configured these flows are off and the UI says so.
 */

export interface AuthEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Structurally the `Mailer` of @rpcpulse/notify: never throws for a failed delivery. */
export interface AuthMailer {
  send(message: AuthEmail): Promise<{ ok: true } | { ok: false; error: string }>;
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

function render(input: { to: string; subject: string; lines: string[]; action: { label: string; url: string } }) {
  const { to, subject, lines, action } = input;
  const text = [...lines, "", `${action.label}: ${action.url}`, "", "— RPC Pulse"].join("\n");
  const html = [
    ...lines.map((line) => `<p style="font:14px system-ui">${escapeHtml(line)}</p>`),
    `<p style="font:14px system-ui"><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>`,
    `<p style="font:12px system-ui;color:#667">If the link does not open, copy it into your browser:<br>${escapeHtml(action.url)}</p>`,
  ].join("");
  return { to, subject, text, html };
}

function formatDuration(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} day${seconds === 86_400 ? "" : "s"}`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} hour${seconds === 3_600 ? "" : "s"}`;
  return `${Math.round(seconds / 60)} minutes`;
}

export function formatPasswordResetEmail(input: { to: string; url: string; expiresInSeconds: number }): AuthEmail {
  return render({
    to: input.to,
    subject: "Reset your RPC Pulse password",
    lines: [
      "Someone (hopefully you) asked to reset the password of your RPC Pulse account.",
      `The link works once and expires in ${formatDuration(input.expiresInSeconds)}. Every other session is signed out when you set the new password.`,
      "If you did not ask for this, ignore this email: your password stays as it is.",
    ],
    action: { label: "Choose a new password", url: input.url },
  });
}

export function formatVerificationEmail(input: { to: string; url: string; expiresInSeconds: number }): AuthEmail {
  return render({
    to: input.to,
    subject: "Confirm your email address for RPC Pulse",
    lines: [
      "Confirm that this address belongs to your RPC Pulse account. You need a confirmed address to join organizations you are invited to.",
      `The link works once and expires in ${formatDuration(input.expiresInSeconds)}.`,
    ],
    action: { label: "Confirm my email address", url: input.url },
  });
}

export function formatInvitationEmail(input: {
  to: string;
  url: string;
  organizationName: string;
  inviterEmail: string;
  role: string;
  expiresAt: Date;
}): AuthEmail {
  return render({
    to: input.to,
    subject: `You are invited to ${input.organizationName} on RPC Pulse`,
    lines: [
      `${input.inviterEmail} invited you to join ${input.organizationName} on RPC Pulse as ${input.role}.`,
      `Sign in or create an account with this address (${input.to}) and confirm it, then accept. The invitation expires on ${input.expiresAt.toUTCString()}.`,
    ],
    action: { label: "Open the invitation", url: input.url },
  });
}
