"use client";
import { formatClock, formatDate, formatDateTime, zoneName } from "@/lib/format.js";
import { useDisplayZone } from "./display-prefs.js";

/**
 * An axis label of a server-rendered chart in the viewer's zone: a client leaf, so charts in HTML
 * shared by every viewer (cached status pages) still label their axis in the zone of the text.
 * Spans over two days show the date, under ten minutes the seconds.
 */
export function ChartTime({ ms, spanMs }: { ms: number; spanMs: number }) {
  const zone = useDisplayZone();
  if (spanMs > 2 * 86_400_000) return <>{formatDate(ms, zone).slice(5)}</>;
  if (spanMs < 600_000) return <>{formatDateTime(ms, zone, { seconds: true, zoneName: false }).slice(11)}</>;
  return <>{formatClock(ms, zone)}</>;
}

/** The display zone's short name ("CEST", "UTC") beside a chart's time axis. */
export function ChartZone() {
  const zone = useDisplayZone();
  return <>{zoneName(new Date(), zone)}</>;
}
