/** Labels and number formats of the advisor pages (server and client). */

export const SEVERITY_ORDER = ["critical", "high", "medium", "low", "info"] as const;

export const STATE_LABEL: Record<string, string> = {
  open: "Open",
  acknowledged: "Acknowledged",
  applied: "Applied",
  verified: "Verified",
  not_effective: "Not effective",
  closed: "Closed",
  dismissed: "Dismissed",
  auto_closed: "Closed (condition cleared)",
};

export const KIND_LABEL: Record<string, string> = {
  change: "Change",
  explanation: "Explanation",
  "obsolete-setting": "Obsolete setting",
};

const METRIC_LABEL: Record<string, { label: string; unit: string; ratio?: boolean }> = {
  tw_outbound: { label: "Outbound TIME_WAIT sockets", unit: "sockets" },
  tw_inbound: { label: "Inbound TIME_WAIT sockets", unit: "sockets" },
  ephemeral_ratio: { label: "Ephemeral ports in use", unit: "%", ratio: true },
  listen_overflows: { label: "Listen-queue overflows per sample", unit: "overflows" },
  listen_drops: { label: "Listen drops per sample", unit: "drops" },
  tw_overflows: { label: "TIME_WAIT bucket overflows", unit: "overflows" },
  latency_p95_ms: { label: "RPC latency", unit: "ms" },
  lag_blocks: { label: "Lag behind the network head", unit: "blocks" },
  head_age_ms: { label: "Head age", unit: "ms" },
  finality_lag_blocks: { label: "Blocks not yet final", unit: "blocks" },
  close_wait: { label: "CLOSE_WAIT sockets", unit: "sockets" },
  orphans: { label: "Orphaned sockets", unit: "sockets" },
  fin_wait2: { label: "FIN_WAIT2 sockets", unit: "sockets" },
  conntrack_ratio: { label: "Conntrack table use", unit: "%", ratio: true },
  fd_ratio: { label: "File descriptors in use", unit: "%", ratio: true },
  top_ip_connections: { label: "Connections of the busiest remote IP", unit: "connections" },
  rpc_connections: { label: "Connections of all remote IPs", unit: "connections" },
  peers: { label: "Peers", unit: "peers" },
  mem_available_ratio: { label: "Memory available", unit: "%", ratio: true },
  shm_free_ratio: { label: "/dev/shm free", unit: "bytes" },
  clock_skew_ms: { label: "Host clock offset", unit: "ms" },
};

export function metricInfo(metric: string): { label: string; unit: string; ratio: boolean } {
  const m = METRIC_LABEL[metric];
  return m ? { ...m, ratio: m.ratio ?? false } : { label: metric.replace(/_/g, " "), unit: "", ratio: false };
}

/** A metric value in its display unit (ratios as percent). */
export function formatMetric(metric: string, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const { ratio, unit } = metricInfo(metric);
  if (ratio) return `${(value * 100).toFixed(value < 0.1 ? 1 : 0)} %`;
  return `${formatNumber(value)}${unit && unit !== "bytes" ? ` ${unit}` : unit === "bytes" ? " B" : ""}`;
}

export function formatNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${(value / 1e9).toFixed(1)}G`;
  if (abs >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (abs >= 10_000) return `${(value / 1e3).toFixed(0)}k`;
  if (abs >= 100 || Number.isInteger(value)) return value.toFixed(0);
  if (abs >= 1) return value.toFixed(1);
  return value.toPrecision(2);
}
