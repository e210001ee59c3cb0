/**
 * "RPC Pulse itself": the platform's own metrics (GET /metrics of web, ingest and worker, scraped by
 * the compose file's Prometheus) as a provisioned dashboard on the Prometheus datasource
 * (provisioning/datasources/prometheus.yml). Written to ../platform/rpcpulse-itself.json by
 * `npm run build:dashboards -w @rpcpulse/infra`; infra/test/platform-dashboard.int.test.ts parses every
 * query with the Prometheus project's PromQL grammar and checks its metrics and labels against a scrape.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SCHEMA_VERSION } from "./panels.js";

export const PROMETHEUS = { type: "prometheus", uid: "rpcpulse-prometheus" } as const;
export const PLATFORM_DASHBOARD_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "platform",
  "rpcpulse-itself.json",
);

interface Query {
  expr: string;
  legend: string;
}

interface PanelSpec {
  title: string;
  description: string;
  unit: string;
  queries: Query[];
}

const RATE = "[$__rate_interval]";

const PANELS: PanelSpec[] = [
  {
    title: "Ingest requests",
    description: "POST /v1/ingest answers per second, by status (202 accepted, 429/503 push-back, 4xx refused).",
    unit: "reqps",
    queries: [
      {
        expr: `sum by (status) (rate(rpcpulse_http_requests_total{app="ingest",route="/v1/ingest"}${RATE}))`,
        legend: "{{status}}",
      },
    ],
  },
  {
    title: "Ingest latency",
    description: "POST /v1/ingest from arrival to the answer written: p50 and p95 over every ingest process.",
    unit: "s",
    queries: [0.5, 0.95].map((q) => ({
      expr: `histogram_quantile(${q}, sum by (le) (rate(rpcpulse_http_request_duration_seconds_bucket{app="ingest",route="/v1/ingest"}${RATE})))`,
      legend: `p${q * 100}`,
    })),
  },
  {
    title: "Web API requests",
    description: "JSON route handlers of the web app per second, by route template.",
    unit: "reqps",
    queries: [
      {
        expr: `sum by (route) (rate(rpcpulse_http_requests_total{app="web"}${RATE}))`,
        legend: "{{route}}",
      },
    ],
  },
  {
    title: "Web API latency p95",
    description: "p95 duration of the web app's JSON route handlers, by route template.",
    unit: "s",
    queries: [
      {
        expr: `histogram_quantile(0.95, sum by (le, route) (rate(rpcpulse_http_request_duration_seconds_bucket{app="web"}${RATE})))`,
        legend: "{{route}}",
      },
    ],
  },
  {
    title: "Queue depth",
    description: "Jobs waiting, delayed (retrying) and parked (failed) per queue, as Redis holds them.",
    unit: "short",
    queries: [
      {
        expr: `max by (queue, state) (rpcpulse_queue_jobs{state=~"waiting|delayed|failed|active"})`,
        legend: "{{queue}} {{state}}",
      },
    ],
  },
  {
    title: "Oldest waiting job",
    description: "Age of each queue's oldest waiting job: how far behind the consumers are.",
    unit: "s",
    queries: [{ expr: "max by (queue) (rpcpulse_queue_oldest_waiting_age_seconds)", legend: "{{queue}}" }],
  },
  {
    title: "Job duration p95",
    description: "p95 duration of completed job attempts per queue.",
    unit: "s",
    queries: [
      {
        expr: `histogram_quantile(0.95, sum by (le, queue) (rate(rpcpulse_job_duration_seconds_bucket{outcome="completed"}${RATE})))`,
        legend: "{{queue}}",
      },
    ],
  },
  {
    title: "Job failures",
    description: "Failed job attempts per second per queue; permanent=true when no retry follows (parked).",
    unit: "ops",
    queries: [
      {
        expr: `sum by (queue, permanent) (rate(rpcpulse_job_failures_total${RATE}))`,
        legend: "{{queue}} permanent={{permanent}}",
      },
    ],
  },
  {
    title: "Ingest flushes",
    description: "Samples per flush (median and p95: how well the writer coalesces) and samples written per second.",
    unit: "short",
    queries: [
      {
        expr: `histogram_quantile(0.5, sum by (le) (rate(rpcpulse_ingest_flush_rows_bucket${RATE})))`,
        legend: "rows per flush p50",
      },
      {
        expr: `histogram_quantile(0.95, sum by (le) (rate(rpcpulse_ingest_flush_rows_bucket${RATE})))`,
        legend: "rows per flush p95",
      },
      { expr: `sum(rate(rpcpulse_ingest_flush_rows_sum${RATE}))`, legend: "rows/s" },
    ],
  },
  {
    title: "Read replica",
    description:
      "Replay lag of the read replica (DATABASE_READ_URL) and whether reads are on it (1) or fell back to the primary (0).",
    unit: "s",
    queries: [
      { expr: "max by (app) (rpcpulse_db_replica_lag_seconds)", legend: "lag {{app}}" },
      { expr: "min by (app) (rpcpulse_db_reads_on_replica)", legend: "reads on replica {{app}}" },
    ],
  },
  {
    title: "Cache hit ratio",
    description: "Agent-token cache (ingest) and status-page snapshot cache (web): hits over all reads.",
    unit: "percentunit",
    queries: [
      {
        expr: `sum by (cache) (rate(rpcpulse_cache_requests_total{result="hit"}${RATE})) / sum by (cache) (rate(rpcpulse_cache_requests_total${RATE}))`,
        legend: "{{cache}}",
      },
    ],
  },
  {
    title: "CPU per process",
    description: "CPU seconds per second of each scraped process (web, ingest, worker replicas).",
    unit: "percentunit",
    queries: [
      {
        expr: `sum by (app, instance) (rate(rpcpulse_process_cpu_seconds_total${RATE}))`,
        legend: "{{app}} {{instance}}",
      },
    ],
  },
];

export function platformDashboard(): Record<string, unknown> {
  return {
    uid: "rpcpulse-itself",
    title: "RPC Pulse itself",
    description: "The platform's own health: ingest, queues, jobs, flushes, read replica, caches.",
    editable: false,
    schemaVersion: SCHEMA_VERSION,
    time: { from: "now-1h", to: "now" },
    refresh: "30s",
    tags: ["rpcpulse", "platform"],
    templating: { list: [] },
    panels: PANELS.map((spec, i) => ({
      id: i + 1,
      type: "timeseries",
      title: spec.title,
      description: spec.description,
      datasource: PROMETHEUS,
      gridPos: { h: 8, w: 12, x: (i % 2) * 12, y: Math.floor(i / 2) * 8 },
      fieldConfig: { defaults: { unit: spec.unit }, overrides: [] },
      options: { legend: { displayMode: "list", placement: "bottom" }, tooltip: { mode: "multi" } },
      targets: spec.queries.map((q, j) => ({
        refId: String.fromCharCode(65 + j),
        datasource: PROMETHEUS,
        editorMode: "code",
        expr: q.expr,
        legendFormat: q.legend,
        range: true,
      })),
    })),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(PLATFORM_DASHBOARD_FILE, `${JSON.stringify(platformDashboard(), null, 2)}\n`);
  console.log(`wrote ${PLATFORM_DASHBOARD_FILE}`);
}
