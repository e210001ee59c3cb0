/** "42 s ago", "12 min ago", "3 h ago" (or "never") for the producer cards' timestamps. */
export function ago(iso: string | null, now: number): string {
  if (!iso) return "never";
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 120) return `${s} s ago`;
  if (s < 7_200) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3_600)} h ago`;
}
