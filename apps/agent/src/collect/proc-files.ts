import { readFileSync } from "node:fs";

/** Read a small text file (procfs, sysctl); null when it does not exist. Other errors propagate. */
export function readTextOrNull(path: string): string | null {
  try {
    return readFileSync(path, "latin1");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

/** First integer of a /proc/sys value, or null when the file is absent or not numeric. */
export function readIntOrNull(path: string): number | null {
  const text = readTextOrNull(path);
  if (text === null) return null;
  const n = Number.parseInt(text.trim(), 10);
  return Number.isFinite(n) ? n : null;
}

/** All integers of a whitespace-separated value (e.g. ip_local_port_range, file-nr). */
export function readIntsOrNull(path: string): number[] | null {
  const text = readTextOrNull(path);
  if (text === null) return null;
  const parts = text
    .trim()
    .split(/\s+/)
    .map((p) => Number.parseInt(p, 10));
  return parts.every((n) => Number.isFinite(n)) ? parts : null;
}

/**
 * A readable reason for any error. A connect to a name with several addresses (localhost: ::1 and
 * 127.0.0.1) fails as an AggregateError whose own message is empty: its inner errors say why.
 */
export function errorMessage(error: unknown): string {
  let text: string;
  if (error instanceof AggregateError && error.errors.length > 0)
    text = [...new Set(error.errors.map((inner: unknown) => errorMessage(inner)))].join("; ");
  else if (error instanceof Error) text = error.message || (error as NodeJS.ErrnoException).code || error.name;
  else text = String(error);
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}
