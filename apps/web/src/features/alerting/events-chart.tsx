import type { AlertEventRow } from "@rpcpulse/db/alerting";
import { ChartTime, ChartZone } from "@/components/chart-time.js";

const HOURS = 24;
const COLOURS: Record<string, string> = {
  firing: "#d92d20",
  renotify: "#f97066",
  degraded: "#f5a524",
  resolved: "#12b76a",
};
const ORDER = ["firing", "renotify", "degraded", "resolved"];

/** Notifications per hour over the last 24 h, stacked by kind (server-rendered SVG). */
export function EventsChart({ events, now }: { events: AlertEventRow[]; now: Date }) {
  const end = Math.ceil(now.getTime() / 3_600_000) * 3_600_000;
  const start = end - HOURS * 3_600_000;
  const buckets = Array.from({ length: HOURS }, () => new Map<string, number>());
  for (const e of events) {
    const t = e.createdAt.getTime();
    if (t < start || t >= end) continue;
    const bucket = buckets[Math.floor((t - start) / 3_600_000)];
    bucket?.set(e.kind, (bucket.get(e.kind) ?? 0) + 1);
  }
  const max = Math.max(1, ...buckets.map((b) => [...b.values()].reduce((a, n) => a + n, 0)));
  const W = 720;
  const H = 110;
  const bw = W / HOURS;
  const label = (i: number) => <ChartTime ms={start + i * 3_600_000} spanMs={HOURS * 3_600_000} />;
  return (
    <figure className="events-chart" aria-label="Alert events per hour, last 24 hours">
      <svg viewBox={`0 0 ${W} ${H + 18}`} role="img" preserveAspectRatio="none">
        <title>Alert events per hour, last 24 hours</title>
        <line x1="0" x2={W} y1={H} y2={H} stroke="#d0d5dd" />
        {buckets.map((bucket, i) => {
          let y = H;
          return (
            <g key={i}>
              {ORDER.map((kind) => {
                const n = bucket.get(kind) ?? 0;
                if (!n) return null;
                const h = (n / max) * (H - 8);
                y -= h;
                return (
                  <rect key={kind} x={i * bw + 2} y={y} width={bw - 4} height={h} fill={COLOURS[kind]} rx="2">
                    <title>
                      {label(i)} <ChartZone />: {n} {kind}
                    </title>
                  </rect>
                );
              })}
              {i % 6 === 0 ? (
                <text x={i * bw + 2} y={H + 14} fontSize="10" fill="currentColor" className="muted">
                  {label(i)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="legend small muted">
        {ORDER.map((k) => (
          <span key={k}>
            <i className={`k-${k}`} aria-hidden="true" /> {k}
          </span>
        ))}
        <span>
          · max {max} per hour · times in <ChartZone />
        </span>
      </figcaption>
    </figure>
  );
}
