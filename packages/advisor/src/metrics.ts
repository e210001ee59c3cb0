import type { AdvisorRemoteIp, AdvisorSample, TargetMetric } from "./types.js";

export interface Point {
  time: Date;
  value: number;
}

type SampleMetric = Exclude<TargetMetric, "top_ip_connections" | "rpc_connections">;

const ratio = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a === null || a === undefined || b === null || b === undefined || b <= 0 ? null : a / b;

/**
 * How far off the host clock is, as well as a sample tells: the ingest's measured agent clock offset
 * (|clockSkewMs|) and, when the head block's timestamp is ahead of the host clock, that lead (−headAgeMs).
 */
export function clockOffsetOf(s: AdvisorSample): number | null {
  const ingest = typeof s.clockSkewMs === "number" ? Math.abs(s.clockSkewMs) : null;
  const ahead = typeof s.headAgeMs === "number" ? Math.max(0, -s.headAgeMs) : null;
  return ingest === null && ahead === null ? null : Math.max(ingest ?? 0, ahead ?? 0);
}

/**
 * How each TargetMetric is computed from one node_samples row. The app uses the same definitions
 * (through metricSeries) for the before/after comparison, so a suggestion is verified on exactly
 * the series its evidence came from.
 */
export const METRIC_DEFINITIONS: Record<
  SampleMetric,
  { label: string; unit: string; of: (s: AdvisorSample) => number | null | undefined }
> = {
  tw_outbound: { label: "Outbound TIME_WAIT sockets", unit: "sockets", of: (s) => s.timeWaitOut },
  tw_inbound: { label: "Inbound TIME_WAIT sockets", unit: "sockets", of: (s) => s.timeWaitIn },
  ephemeral_ratio: {
    label: "Ephemeral ports in use / range",
    unit: "ratio",
    of: (s) => ratio(s.ephemeralInUse, s.ephemeralRange),
  },
  listen_overflows: { label: "Listen queue overflows per sample", unit: "overflows", of: (s) => s.listenOverflows },
  listen_drops: { label: "Listen drops per sample", unit: "drops", of: (s) => s.listenDrops },
  tw_overflows: { label: "TIME_WAIT bucket overflows per sample", unit: "overflows", of: (s) => s.twOverflows },
  latency_p95_ms: { label: "RPC latency", unit: "ms", of: (s) => s.totalMs },
  lag_blocks: { label: "Blocks behind the network", unit: "blocks", of: (s) => s.lagBlocks },
  head_age_ms: { label: "Head block age", unit: "ms", of: (s) => s.headAgeMs },
  finality_lag_blocks: {
    label: "Blocks not yet final (head − finalized)",
    unit: "blocks",
    of: (s) =>
      typeof s.headBlock === "number" && typeof s.finalizedBlock === "number" ? s.headBlock - s.finalizedBlock : null,
  },
  close_wait: { label: "CLOSE_WAIT sockets", unit: "sockets", of: (s) => s.tcpCloseWait },
  orphans: { label: "Orphaned TCP sockets", unit: "sockets", of: (s) => s.sockOrphan },
  fin_wait2: { label: "FIN_WAIT2 sockets", unit: "sockets", of: (s) => s.tcpFinWait2 },
  conntrack_ratio: {
    label: "Conntrack entries / nf_conntrack_max",
    unit: "ratio",
    of: (s) => ratio(s.conntrackCount, s.conntrackMax),
  },
  fd_ratio: { label: "Open files / limit", unit: "ratio", of: (s) => ratio(s.openFds, s.fdLimit) },
  peers: { label: "Peers", unit: "peers", of: (s) => s.peers },
  mem_available_ratio: {
    label: "MemAvailable / MemTotal",
    unit: "ratio",
    of: (s) => ratio(s.memAvailable, s.memTotal),
  },
  shm_free_ratio: { label: "/dev/shm free share", unit: "ratio", of: () => null },
  clock_skew_ms: { label: "Host clock offset", unit: "ms", of: (s) => clockOffsetOf(s) },
};

/** Busiest remote IP per sample time (node_remote_ips). */
export function topIpSeries(remoteIps: readonly AdvisorRemoteIp[]): Point[] {
  const byTime = new Map<number, number>();
  for (const r of remoteIps) {
    const t = r.time.getTime();
    byTime.set(t, Math.max(byTime.get(t) ?? 0, r.connections));
  }
  return [...byTime.entries()].sort((a, b) => a[0] - b[0]).map(([t, v]) => ({ time: new Date(t), value: v }));
}

/** Sum of the listed remote-IP connections per sample time. */
export function totalIpSeries(remoteIps: readonly AdvisorRemoteIp[]): Point[] {
  const byTime = new Map<number, number>();
  for (const r of remoteIps) byTime.set(r.time.getTime(), (byTime.get(r.time.getTime()) ?? 0) + r.connections);
  return [...byTime.entries()].sort((a, b) => a[0] - b[0]).map(([t, v]) => ({ time: new Date(t), value: v }));
}

/**
 * The series a TargetMetric stands for over the given samples (finite values only). For
 * `shm_free_ratio` pass shmTotalBytes; for `top_ip_connections` pass the remote IP rows.
 */
export function metricSeries(
  metric: TargetMetric,
  samples: readonly AdvisorSample[],
  extra: { remoteIps?: readonly AdvisorRemoteIp[]; shmTotalBytes?: number | null } = {},
): Point[] {
  if (metric === "top_ip_connections") return topIpSeries(extra.remoteIps ?? []);
  if (metric === "rpc_connections") return totalIpSeries(extra.remoteIps ?? []);
  const of =
    metric === "shm_free_ratio"
      ? (s: AdvisorSample) => ratio(s.shmFree, extra.shmTotalBytes)
      : METRIC_DEFINITIONS[metric].of;
  const out: Point[] = [];
  for (const s of samples) {
    const v = of(s);
    if (typeof v === "number" && Number.isFinite(v)) out.push({ time: s.time, value: v });
  }
  return out;
}

export function valuesOf(points: readonly Point[]): number[] {
  return points.map((p) => p.value);
}

/** Nearest-rank percentile (p in 0..100) of finite values; null when empty. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[Math.min(s.length, rank) - 1]!;
}

export function maxOf(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => (b > a ? b : a), -Infinity);
}

export function sumOf(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** At most `max` points for a chart: bucket maxima so spikes survive. */
export function chartSeries(points: readonly Point[], max = 60): { time: string; value: number }[] {
  if (points.length <= max) return points.map((p) => ({ time: p.time.toISOString(), value: round(p.value, 4) }));
  const size = points.length / max;
  const out: { time: string; value: number }[] = [];
  for (let b = 0; b < max; b++) {
    const chunk = points.slice(Math.floor(b * size), Math.floor((b + 1) * size));
    if (chunk.length === 0) continue;
    const top = chunk.reduce((a, c) => (c.value > a.value ? c : a));
    out.push({ time: top.time.toISOString(), value: round(top.value, 4) });
  }
  return out;
}

export function round(v: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Median spacing of sample times in seconds (the agent interval), default 10. */
export function sampleIntervalSeconds(samples: readonly AdvisorSample[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < samples.length; i++)
    gaps.push((samples[i]!.time.getTime() - samples[i - 1]!.time.getTime()) / 1000);
  const m = percentile(
    gaps.filter((g) => g > 0),
    50,
  );
  return m ?? 10;
}

export function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** Thousands separators for arithmetic lines. */
export function fmt(n: number, digits = 0): string {
  return round(n, digits).toLocaleString("en-US", { maximumFractionDigits: digits });
}

export function pct(r: number, digits = 0): string {
  return `${fmt(r * 100, digits)} %`;
}
