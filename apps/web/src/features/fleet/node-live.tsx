"use client";
import type { NodeMetrics } from "@rpcpulse/services/fleet";
import { useEffect, useState } from "react";
import { TimeSeriesChart } from "@/components/charts/time-series-chart.js";
import { DataTable, labelColumns } from "@/components/data-table.js";
import { formatAgo, formatBytes, formatDuration } from "@/lib/format.js";
import { formatCount, formatMs } from "./format.js";
import { PublicHeadCard } from "./public-head.js";

const IP_NUMBERS = ["Max conns", "Avg conns", "Samples"];
const IP_COLUMNS = labelColumns(["Remote IP", ...IP_NUMBERS], IP_NUMBERS);

const COLORS = ["#0e7c86", "#d97706", "#7c3aed", "#dc2626", "#2563eb", "#059669"];
const count = (v: number) => (Number.isInteger(v) ? formatCount(v) : v.toFixed(1));
const ms = (v: number) => formatMs(v);
const seconds = (v: number) => `${Math.round(v / 1000)} s`;
const bytes = (v: number) => formatBytes(v);

/** How often the charts are refreshed: raw data every agent interval, rollups less often. */
function pollMsFor(range: NodeMetrics["range"]): number {
  return range === "1h" ? 10_000 : range === "24h" ? 60_000 : 300_000;
}

const STATUS_TEXT: Record<NodeMetrics["node"]["status"], string> = {
  waiting: "Waiting for first batch",
  up: "Connected",
  lagging: "Connected, lagging",
  down: "Down: agent silent",
};

export function NodeLive({ metricsUrl, initial }: { metricsUrl: string; initial: NodeMetrics }) {
  const [m, setM] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => new Date(initial.to));

  useEffect(() => {
    let stopped = false;
    const tick = async () => {
      try {
        const res = await fetch(`${metricsUrl}?range=${initial.range}`, { cache: "no-store" });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const next = (await res.json()) as NodeMetrics;
        if (!stopped) {
          setM(next);
          setNow(new Date(next.to));
          setError(null);
        }
      } catch (e) {
        if (!stopped) setError(e instanceof Error ? e.message : String(e));
      }
    };
    // Waiting nodes are polled every 5 s so "connected" shows up right after the first batch.
    const every = m.node.status === "waiting" ? 5_000 : pollMsFor(initial.range);
    const timer = setInterval(tick, every);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [metricsUrl, initial.range, m.node.status]);

  const s = m.series;
  const { node } = m;
  const xRange: [number, number] = [Math.floor(Date.parse(m.from) / 1000), Math.floor(Date.parse(m.to) / 1000)];
  // Rollups are materialized once a minute: the newest minutes show in the 1 h (raw) range first.
  const rollupNote =
    m.resolution === "raw" ? "" : " Rollups are built each minute; the newest data shows in the 1 h range first.";
  return (
    <div className="node-live">
      <div className={`status-banner ${node.status}`} role="status" data-testid="node-status">
        <strong>{STATUS_TEXT[node.status]}</strong>
        <span>
          {node.lastSeenAt ? `last batch ${formatAgo(node.lastSeenAt, now)}` : "no batch received yet"}
          {node.agentVersion ? ` · agent ${node.agentVersion}` : ""}
          {node.lagBlocks !== null
            ? ` · lag ${formatCount(node.lagBlocks)} blocks`
            : node.lastSeenAt
              ? " · lag unknown (no consensus head yet)"
              : ""}
          {node.headAgeMs !== null ? ` · head age ${formatDuration(node.headAgeMs)}` : ""}
          {node.finalityLagBlocks !== null ? ` · finality lag ${formatCount(node.finalityLagBlocks)} blocks` : ""}
          {node.publicHead?.verdict === "behind" || node.publicHead?.verdict === "failing"
            ? ` · public URL ${node.publicHead.verdict}`
            : ""}
        </span>
        {error ? <span className="muted small">(update failed: {error}; retrying)</span> : null}
      </div>
      {node.status === "waiting" ? (
        <div className="card empty">
          <h2>No telemetry yet</h2>
          <p>
            Run the install command on the node&apos;s host (or rotate the token to get a new one). This page updates by
            itself when the first batch lands.
          </p>
        </div>
      ) : null}
      {node.status !== "waiting" || node.publicHead ? (
        <PublicHeadCard
          view={node.publicHead}
          ownHead={node.headBlock}
          finalizedBlock={node.finalizedBlock}
          finalityLagBlocks={node.finalityLagBlocks}
          now={now}
        />
      ) : null}
      <p className="muted small">
        {m.resolution === "raw" ? "Raw 10 s samples" : m.resolution === "1m" ? "1-minute rollups" : "1-hour rollups"} ·
        updates every {Math.round(pollMsFor(m.range) / 1000)} s
      </p>
      <div className="chart-grid">
        <TimeSeriesChart
          title="TCP connections by state (stacked)"
          time={m.time}
          xRange={xRange}
          unit="connections"
          format={count}
          stacked
          emptyText={`No TCP counts in this range.${rollupNote}`}
          series={[
            { label: "ESTABLISHED", color: "#0e7c86", values: s.establishedAvg },
            { label: "TIME_WAIT", color: "#d97706", values: s.timeWaitAvg },
            { label: "CLOSE_WAIT", color: "#dc2626", values: s.closeWaitMax },
            { label: "SYN_RECV", color: "#7c3aed", values: s.synRecvMax },
          ]}
        />
        <TimeSeriesChart
          title="TIME_WAIT inbound / outbound"
          time={m.time}
          xRange={xRange}
          unit="sockets"
          format={count}
          emptyText={`No TIME_WAIT split in this range.${rollupNote}`}
          series={[
            { label: "inbound", color: "#0e7c86", values: s.timeWaitInMax },
            { label: "outbound", color: "#d97706", values: s.timeWaitOutMax },
          ]}
        />
        <TimeSeriesChart
          title="Lag and head age"
          time={m.time}
          xRange={xRange}
          unit="blocks"
          format={count}
          rightUnit="head age"
          rightFormat={seconds}
          emptyText={`No chain head reported in this range.${rollupNote}`}
          series={[
            { label: "lag (blocks)", color: "#dc2626", values: s.lagBlocksMax },
            { label: "head age", color: "#2563eb", values: s.headAgeMsMax, right: true, dashed: true },
          ]}
        />
        <TimeSeriesChart
          title="Finality lag (head − finalized)"
          time={m.time}
          xRange={xRange}
          unit="blocks"
          format={count}
          emptyText={`No finalized block reported in this range.${rollupNote}`}
          series={[{ label: "finality lag (blocks)", color: "#7c3aed", values: s.finalityLagBlocks }]}
        />
        <TimeSeriesChart
          title="RPC latency phases"
          time={m.time}
          xRange={xRange}
          unit="ms"
          format={ms}
          emptyText={`No RPC timings in this range: is the local RPC URL right?${rollupNote}`}
          series={[
            { label: "connect avg", color: "#059669", values: s.connectMsAvg },
            { label: "first byte avg", color: "#2563eb", values: s.ttfbMsAvg },
            { label: "total avg", color: "#0e7c86", values: s.totalMsAvg },
            { label: "total p95", color: "#dc2626", values: s.totalMsP95, dashed: true },
          ]}
        />
        <TimeSeriesChart
          title="Memory"
          time={m.time}
          xRange={xRange}
          unit="bytes"
          format={bytes}
          emptyText={`No memory figures in this range.${rollupNote}`}
          series={[
            { label: "available", color: "#0e7c86", values: s.memAvailableMin },
            { label: "total", color: "#5b6678", values: s.memTotal, dashed: true },
            { label: "swap used", color: "#dc2626", values: s.swapUsedMax },
          ]}
        />
        <TimeSeriesChart
          title="Disk"
          time={m.time}
          xRange={xRange}
          unit="bytes"
          format={bytes}
          emptyText={`No disk figures: start the agent with --data-dir pointing at the node's data.${rollupNote}`}
          series={[
            { label: "data dir free", color: "#0e7c86", values: s.diskFreeMin },
            { label: "data dir size", color: "#5b6678", values: s.diskTotal, dashed: true },
            { label: "/dev/shm free", color: "#7c3aed", values: s.shmFreeMin },
          ]}
        />
      </div>
      <section className="card" aria-labelledby="ips-title">
        <h2 id="ips-title">Top remote IPs</h2>
        {m.topRemoteIps.length === 0 ? (
          <p className="muted">
            No per-IP counts in this range. The agent counts connections on the node&apos;s public ports (listening
            ports by default, or <code>--ports</code>).
          </p>
        ) : (
          <div className="grid-2 ips-grid">
            <DataTable className="compact" columns={IP_COLUMNS}>
              {m.topRemoteIps.map((ip) => (
                <tr key={ip.ip}>
                  <td className="mono">{ip.ip}</td>
                  <td className="num">{formatCount(ip.maxConns)}</td>
                  <td className="num">{ip.avgConns.toFixed(1)}</td>
                  <td className="num">{formatCount(ip.samples)}</td>
                </tr>
              ))}
            </DataTable>
            <TimeSeriesChart
              title={`Top ${m.remoteIps.ips.length} IPs over time (max per ${formatDuration(m.remoteIps.bucketSeconds * 1000)})`}
              time={m.remoteIps.time}
              xRange={xRange}
              unit="connections"
              format={count}
              emptyText={`No per-IP series in this range.`}
              series={m.remoteIps.ips.map((ip, i) => ({
                label: ip,
                color: COLORS[i % COLORS.length]!,
                values: m.remoteIps.conns[i] ?? [],
              }))}
            />
          </div>
        )}
      </section>
    </div>
  );
}
