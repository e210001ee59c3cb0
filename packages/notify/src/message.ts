/** The channel-independent notification every sender formats in its own way. */
export type NotificationKind = "firing" | "degraded" | "resolved" | "renotify" | "test";

export interface NotificationField {
  name: string;
  value: string;
}

export interface NotificationMessage {
  kind: NotificationKind;
  /** One line, e.g. "hive-1: 14 blocks behind for 6 minutes". */
  title: string;
  /** Plain text, a few lines. */
  body: string;
  /** Link back to the alerts page (absolute URL) when known. */
  url?: string | undefined;
  fields: NotificationField[];
  /** Stable id of the event (idempotency key for receivers). */
  eventId: string;
  organization: string;
  occurredAt: Date;
}

const KIND_LABEL: Record<NotificationKind, string> = {
  firing: "FIRING",
  degraded: "DEGRADED",
  resolved: "RESOLVED",
  renotify: "STILL FIRING",
  test: "TEST",
};

export function kindLabel(kind: NotificationKind): string {
  return KIND_LABEL[kind];
}

/** Plain-text rendering shared by email and Telegram. */
export function renderPlainText(message: NotificationMessage): string {
  const lines = [`[${kindLabel(message.kind)}] ${message.title}`, "", message.body];
  if (message.fields.length) {
    lines.push("");
    for (const f of message.fields) lines.push(`${f.name}: ${f.value}`);
  }
  lines.push("", `Organization: ${message.organization}`, `At: ${message.occurredAt.toISOString()}`);
  if (message.url) lines.push(`Details: ${message.url}`);
  return lines.join("\n");
}

/** Escapes text for HTML bodies (email, Telegram HTML parse mode). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
