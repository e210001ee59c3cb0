/**
 * Shared pieces of the ingest benches (bench/ingest-*.ts; not part of the test suite): a private
 * redis-server, the ingest and worker processes, seeded nodes with tokens, the same rows as CSV
 * for the `psql \copy` reference, and small statistics helpers.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { request, type Agent } from "node:http";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { INGEST_SAMPLE_METRICS } from "@rpcpulse/db/ingest";
import { freePort } from "@rpcpulse/db/testing";
import type { TestDatabase } from "@rpcpulse/db/testing";
import type { AgentBatch } from "@rpcpulse/domain";
import { createAgentToken } from "@rpcpulse/services/fleet";
import { normaliseAgentBatch } from "@rpcpulse/services/ingest";
import { type ServiceContext } from "@rpcpulse/services/context";

export const ROOT = resolve(dirname(resolve(process.argv[1]!)), "..");

/** A redis-server of our own (no persistence) so benches never load the shared instance. */
export async function startPrivateRedis(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "rpcpulse-bench-redis-"));
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("Ready to accept connections")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited ${code}`)));
  });
  child.stdout?.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Start an app entry (apps/<app>/src/main.ts) as its own process; resolves when `readyText` is logged. */
export async function startApp(
  app: "ingest" | "worker",
  env: Record<string, string>,
  readyText: string,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "src/main.ts"], {
    cwd: join(ROOT, "apps", app),
    env: { LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Only the output up to the ready line is kept (the tail of it, for the error when the app exits
  // first): the whole output of a long bench, appended to and searched per chunk, once cost the
  // fleet-load bench more CPU than building its batches.
  let out = "";
  const onData = (c: Buffer) => {
    out = (out + c.toString()).slice(-(readyText.length + 4_000));
    if (out.includes(readyText)) ready();
  };
  let ready = () => undefined as void;
  await new Promise<void>((resolve, reject) => {
    ready = resolve;
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${app} exited ${code}:\n${out.slice(-2000)}`)));
  });
  child.stdout?.off("data", onData);
  child.stderr?.off("data", onData);
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    child,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    },
  };
}

/** POST one gzip'd agent batch to /v1/ingest; resolves with the status code. `onSocket`: the request got its connection. */
export function postBatch(
  agent: Agent,
  port: number,
  token: string,
  body: Buffer,
  onSocket?: () => void,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/v1/ingest",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-encoding": "gzip",
          "content-length": body.length,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    if (onSocket) req.once("socket", onSocket);
    req.end(body);
  });
}

/** Wait until GET /healthz on this port answers 2xx (30 s at most). */
export async function waitHealthy(port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`port ${port} never became healthy`);
}

export interface BenchNode {
  nodeId: string;
  token: string;
}

/** One organization with `count` Hive nodes, one token each. */
export async function seedNodes(db: TestDatabase, count: number): Promise<BenchNode[]> {
  const orgId = `org_${randomBytes(6).toString("hex")}`;
  await db.pool.query("INSERT INTO organizations (id, name, slug) VALUES ($1, $1, $1)", [orgId]);
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO nodes (organization_id, network_id, api_family, client_name, name, local_rpc_url)
     SELECT $1, n.id, 'hive', 'hived', 'bench-' || g, 'http://127.0.0.1:8091'
     FROM networks n, generate_series(1, $2) g WHERE n.slug = 'hive' RETURNING id`,
    [orgId, count],
  );
  const ctx: ServiceContext = { userId: "bench", organizationId: orgId, organizationSlug: orgId, role: "owner" };
  // A few at a time (the pool's size): 10,000 tokens one by one take minutes.
  const nodes: BenchNode[] = new Array(rows.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = next++; i < rows.length; i = next++) {
        const issued = await createAgentToken({ sql: db.pool }, ctx, { nodeId: rows[i]!.id });
        nodes[i] = { nodeId: rows[i]!.id, token: issued.token };
      }
    }),
  );
  return nodes;
}

export const SAMPLE_COPY_COLUMNS = [
  "time",
  "node_id",
  "batch_seq",
  "clock_skew_ms",
  "lag_blocks",
  ...INGEST_SAMPLE_METRICS.map(([, column]) => column),
];

/** The rows our writer stores for these batches, as CSV for `psql \copy` (same values). */
export function writeReferenceCsv(
  dir: string,
  batches: { nodeId: string; batch: AgentBatch }[],
): { samplesCsv: string; remoteIpsCsv: string; samples: number; remoteIps: number } {
  const sampleLines: string[] = [];
  const ipLines: string[] = [];
  for (const { nodeId, batch } of batches) {
    const n = normaliseAgentBatch(batch);
    const cols = n.samples as unknown as Record<string, readonly (number | boolean | null)[]>;
    n.samples.time.forEach((t, i) => {
      const values: string[] = [new Date(t).toISOString(), nodeId, String(batch.batchSeq), "0", "0"];
      for (const [field, , kind] of INGEST_SAMPLE_METRICS) {
        const v = cols[field]?.[i];
        if (v === null || v === undefined) values.push("");
        else if (kind === "time") values.push(new Date(v as number).toISOString());
        else if (kind === "int8" || kind === "int4" || kind === "int2") values.push(String(Math.round(v as number)));
        else values.push(String(v));
      }
      sampleLines.push(values.join(","));
    });
    n.remoteIps.ip.forEach((ip, i) => {
      ipLines.push(
        `${new Date(n.samples.time[n.remoteIps.sample[i]!]!).toISOString()},${nodeId},${ip},${n.remoteIps.conns[i]}`,
      );
    });
  }
  const samplesCsv = join(dir, "samples.csv");
  const remoteIpsCsv = join(dir, "remote_ips.csv");
  writeFileSync(samplesCsv, sampleLines.join("\n") + "\n");
  writeFileSync(remoteIpsCsv, ipLines.join("\n") + "\n");
  return { samplesCsv, remoteIpsCsv, samples: sampleLines.length, remoteIps: ipLines.length };
}

/** `psql \copy` of both CSVs into the database's node_samples / node_remote_ips; returns ms. */
export function psqlCopy(url: string, csv: { samplesCsv: string; remoteIpsCsv: string }): number {
  const started = performance.now();
  execFileSync("psql", [
    url,
    "-q",
    "-v",
    "ON_ERROR_STOP=1",
    "-c",
    `\\copy node_samples (${SAMPLE_COPY_COLUMNS.join(",")}) FROM '${csv.samplesCsv}' WITH (FORMAT csv)`,
    "-c",
    `\\copy node_remote_ips (time, node_id, ip, conns) FROM '${csv.remoteIpsCsv}' WITH (FORMAT csv)`,
  ]);
  return performance.now() - started;
}

export async function truncateIngestTables(db: TestDatabase): Promise<void> {
  await db.pool.query("TRUNCATE node_samples, node_remote_ips, node_latest");
  await db.pool.query("VACUUM ANALYZE node_samples, node_remote_ips");
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};

export function table(rows: (string | number)[][]): string {
  const cells = rows.map((r) =>
    r.map((c) => (typeof c === "number" ? c.toLocaleString("en-US", { maximumFractionDigits: 2 }) : c)),
  );
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ")).join("\n");
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "rpcpulse-bench-"));
}
