/** Only same-site paths are followed after sign-in or a mailed link (no open redirect). */
export function safeNext(value: string | undefined, fallback: string): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  return value;
}
