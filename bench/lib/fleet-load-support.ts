/**
 * Small pieces of bench/fleet-load.ts: the apps' Prometheus text (/metrics with the bench's
 * METRICS_TOKEN), the on-disk size of the ingest tables (partitions included), and a CPU profile
 * of the bench process itself.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import type pg from "pg";

/** application_name of the commit watcher's connection (its backend's CPU is reported apart). */
export const WATCHER_APPLICATION_NAME = "rpcpulse-bench-commit-watcher";

/** Start a V8 CPU profile of this process; stop(dir) writes it there as a .cpuprofile and returns the path. */
export async function startSelfProfile(): Promise<{ stop(dir: string): Promise<string> }> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stop(dir) {
      const { profile } = await session.post("Profiler.stop");
      session.disconnect();
      const path = join(dir, `load-generator-${process.pid}.cpuprofile`);
      writeFileSync(path, JSON.stringify(profile));
      return path;
    },
  };
}

/** GET /metrics of an app on this port (ingest: its API port; worker: its health port). */
export async function scrapeMetrics(port: number, token: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`/metrics on ${port}: HTTP ${res.status}`);
  return res.text();
}

/** Sum of every sample of `name` (exact metric name) whose label set contains `filter`. */
export function sumMetric(text: string, name: string, filter = ""): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== "{" && rest[0] !== " ") continue;
    if (filter && !rest.includes(filter)) continue;
    const value = Number(rest.slice(rest.lastIndexOf(" ") + 1));
    if (Number.isFinite(value)) sum += value;
  }
  return sum;
}

/** Bytes on disk (table, indexes, TOAST; partitions summed) of the ingest tables. */
export async function readFleetSizes(pool: pg.Pool): Promise<{ relation: string; bytes: number; perDay: boolean }[]> {
  const out: { relation: string; bytes: number; perDay: boolean }[] = [];
  for (const [relation, perDay] of [
    ["node_samples", true],
    ["node_remote_ips", true],
    ["node_latest", false],
  ] as const) {
    const { rows } = await pool.query<{ bytes: string | null }>(
      // pg_partition_tree is empty for a table that is not partitioned (node_latest).
      `SELECT coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree($1::regclass)),
                       pg_total_relation_size($1::regclass))::bigint AS bytes`,
      [relation],
    );
    out.push({ relation, bytes: Number(rows[0]?.bytes ?? 0), perDay });
  }
  return out;
}
