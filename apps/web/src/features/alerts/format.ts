/** "3 min ago", "2 h ago" (server render time). */
export function ago(date: Date | null, now: Date): string {
  if (!date) return "never";
  const s = Math.max(0, Math.round((now.getTime() - date.getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} d ago`;
}

export function utc(date: Date | null): string {
  return date ? `${date.toISOString().slice(0, 19).replace("T", " ")} UTC` : "—";
}
