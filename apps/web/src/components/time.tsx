import "server-only";
import { formatAgo, formatDate, formatDateTime } from "@/lib/format.js";
import { getDisplayZone } from "@/server/display-prefs.js";

type Instant = Date | string | number;

/**
 * An instant in the viewer's zone (server components; client components use LocalTime from
 * display-prefs.tsx). `now`: "3 min ago" with the full time as its title; `dateOnly`: "2026-03-29".
 */
export async function Time(props: {
  at: Instant | null | undefined;
  now?: Instant;
  seconds?: boolean;
  dateOnly?: boolean;
}) {
  const { at } = props;
  if (at === null || at === undefined) return <>{props.now ? "never" : "—"}</>;
  const zone = await getDisplayZone();
  const iso = new Date(at).toISOString();
  const full = formatDateTime(at, zone, { seconds: props.seconds });
  if (props.now !== undefined) {
    return (
      <time dateTime={iso} title={full}>
        {formatAgo(at, props.now)}
      </time>
    );
  }
  return <time dateTime={iso}>{props.dateOnly ? formatDate(at, zone) : full}</time>;
}
