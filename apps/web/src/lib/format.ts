/**
 * The one place that turns times, durations and sizes into text (server and client). Every time is
 * shown in a display zone: the viewer's IANA zone, or "UTC" when the viewer toggled UTC (see
 * display-prefs.ts for where the zone comes from). Instants are stored and passed around in UTC.
 */

export const UTC = "UTC";

const partsCache = new Map<string, Intl.DateTimeFormat>();
const nameCache = new Map<string, Intl.DateTimeFormat>();

/** True when `zone` is an IANA zone this runtime knows. */
export function isValidTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function partsFormat(zone: string): Intl.DateTimeFormat {
  let f = partsCache.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partsCache.set(zone, f);
  }
  return f;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of an instant in `zone`. */
export function wallClock(at: Date, zone: string): WallClock {
  const out: Record<string, number> = {};
  for (const p of partsFormat(zone).formatToParts(at)) {
    if (p.type !== "literal") out[p.type] = Number(p.value);
  }
  return {
    year: out.year ?? 0,
    month: out.month ?? 1,
    day: out.day ?? 1,
    hour: (out.hour ?? 0) % 24,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

/** The zone's offset from UTC at `at`, in ms (CEST: +7_200_000). */
export function zoneOffsetMs(at: Date, zone: string): number {
  const w = wallClock(at, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** Short zone name at `at`: "UTC", "CEST", "EST", or "GMT+5:30" where the zone has no abbreviation. */
export function zoneName(at: Date, zone: string): string {
  if (zone === UTC) return UTC;
  let f = nameCache.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "short" });
    nameCache.set(zone, f);
  }
  return f.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? zone;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

type Instant = Date | string | number;
const toDate = (at: Instant) => (at instanceof Date ? at : new Date(at));

/** "2026-03-29 14:05 CEST" (with `seconds`: "14:05:09"); "—" for no value. */
export function formatDateTime(
  at: Instant | null | undefined,
  zone: string,
  opts: { seconds?: boolean; zoneName?: boolean } = {},
): string {
  if (at === null || at === undefined) return "—";
  const d = toDate(at);
  if (Number.isNaN(d.getTime())) return "—";
  const w = wallClock(d, zone);
  const time = `${pad(w.hour)}:${pad(w.minute)}${opts.seconds ? `:${pad(w.second)}` : ""}`;
  const text = `${w.year}-${pad(w.month)}-${pad(w.day)} ${time}`;
  return opts.zoneName === false ? text : `${text} ${zoneName(d, zone)}`;
}

/** "2026-03-29" in `zone`. */
export function formatDate(at: Instant | null | undefined, zone: string): string {
  if (at === null || at === undefined) return "—";
  const w = wallClock(toDate(at), zone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** "14:05" in `zone` (axis labels; the zone is named once beside the chart); with `zoneName`: "14:05 CEST". */
export function formatClock(at: Instant, zone: string, opts: { zoneName?: boolean } = {}): string {
  const d = toDate(at);
  const w = wallClock(d, zone);
  const text = `${pad(w.hour)}:${pad(w.minute)}`;
  return opts.zoneName ? `${text} ${zoneName(d, zone)}` : text;
}

/** A duration: "45 s", "12 min", "3 h 5 min", "4 d"; "—" for no value. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d`;
}

/** "just now", "12 min ago", "3 h ago", "4 d ago" relative to `now` (zone-free); "never" for no value. */
export function formatAgo(at: Instant | null | undefined, now: Instant): string {
  if (at === null || at === undefined) return "never";
  const s = Math.max(0, Math.round((toDate(now).getTime() - toDate(at).getTime()) / 1000));
  if (s < 1) return "just now";
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} d ago`;
}

/** Binary sizes: "512 B", "1.5 KiB", "120 MiB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Math.abs(v) >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The UTC instant of a wall-clock time ("2026-03-29T02:30", a datetime-local value) in `zone`.
 * A time that occurs twice (clocks going back) is its first occurrence; a time that does not
 * exist (clocks going forward) is null, so a form can say so instead of guessing.
 */
export function zonedInputToUtc(value: string, zone: string): Date | null {
  const m = LOCAL_INPUT.exec(value);
  if (!m || !isValidTimeZone(zone)) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  if (Number.isNaN(wall) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const offsets = new Set([
    zoneOffsetMs(new Date(wall - 86_400_000), zone),
    zoneOffsetMs(new Date(wall), zone),
    zoneOffsetMs(new Date(wall + 86_400_000), zone),
  ]);
  const matches = [...offsets]
    .map((o) => wall - o)
    .filter((t) => {
      const w = wallClock(new Date(t), zone);
      return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) === wall;
    })
    .sort((a, b) => a - b);
  return matches.length > 0 ? new Date(matches[0]!) : null;
}

/** A datetime-local value ("2026-03-29T14:05") of an instant in `zone`. */
export function utcToZonedInput(at: Date, zone: string): string {
  const w = wallClock(at, zone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}
