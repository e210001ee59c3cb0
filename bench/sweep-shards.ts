/**
 * Sharded sweeps (issue 13): the time of one full round of the organization sweeps (alert evaluation
 * and the advisor sweep, SWEEP_SHARDS shard jobs each) over --nodes nodes in --orgs organizations,
 * processed by 1 and then 2 real worker processes (apps/worker/src/main.ts, alerts and advisor
 * consumers only). Not part of the test suite.
 *
 *   npx tsx bench/sweep-shards.ts [--nodes 10000] [--orgs 500] [--shards 8] [--samples 6] [--workers 1,2]
 *     [--cpu-prof DIR]  (V8 CPU profiles of the worker processes into DIR/<n>w/, for chrome devtools)
 *     [--timeline]      (each shard job's start and end)
 *
 * A bench database (template clone) gets the organizations, their nodes with --samples 10 s samples
 * each (the advisor evaluates nodes with new samples) and one lag rule per organization over all its
 * nodes (one alert state per node). Each run starts from a fresh copy of that seeded database (so
 * every run evaluates every node), waits until its workers have sent a heartbeat, then queues one
 * job per shard and sweep and times until all of them completed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { insertNodeSamples, type NodeSampleInput } from "@rpcpulse/db/fleet";
import { createTestDatabase, waitFor } from "../packages/db/src/testing.js";
import { closeQueues, createRedisConnection, getQueue, type QueueTarget } from "../packages/queue/src/index.js";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "../packages/queue/src/testing.js";
import { createCpuMeter } from "./lib/process-cpu.js";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "10000" },
    orgs: { type: "string", default: "500" },
    shards: { type: "string", default: "8" },
    samples: { type: "string", default: "6" },
    workers: { type: "string", default: "1,2" },
    "cpu-prof": { type: "string" },
    timeline: { type: "boolean", default: false },
  },
});
const NODES = Number(values.nodes);
const ORGS = Number(values.orgs);
const SHARDS = Number(values.shards);
const SAMPLES = Number(values.samples);
const WORKER_COUNTS = values.workers.split(",").map(Number);
/** A folder for V8 CPU profiles of the worker processes (written when they exit), or undefined. */
const CPU_PROF_DIR = values["cpu-prof"] ? path.resolve(values["cpu-prof"]) : undefined;
const workerDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../apps/worker");

async function seed(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const started = performance.now();
  try {
    const network = await pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = 'hive'");
    const networkId = network.rows[0]!.id;
    await pool.query(
      `INSERT INTO organizations (id, name, slug) SELECT 'bench-org-' || g, 'bench ' || g, 'bench-org-' || g
       FROM generate_series(0, $1 - 1) g`,
      [ORGS],
    );
    const nodes = await pool.query<{ id: string; organization_id: string }>(
      `INSERT INTO nodes (organization_id, network_id, api_family, client_name, name, local_rpc_url, last_seen_at)
       SELECT 'bench-org-' || (g % $1), $2, 'hive', 'hived', 'n' || g, 'http://127.0.0.1:8091', now()
       FROM generate_series(0, $3 - 1) g RETURNING id, organization_id`,
      [ORGS, networkId, NODES],
    );
    const now = Date.now();
    let batch: NodeSampleInput[] = [];
    for (const [n, node] of nodes.rows.entries()) {
      for (let k = 0; k < SAMPLES; k++)
        batch.push({
          time: new Date(now - (SAMPLES - k) * 10_000),
          nodeId: node.id,
          tcpEstablished: 40 + (k % 5),
          timeWaitIn: 300,
          timeWaitOut: 20,
          totalMs: 15,
          peers: 20,
          headBlock: 1_000_000 + k,
          lagBlocks: n % 10 === 0 ? 40 : 0,
          headAgeMs: 3_000,
        });
      if (batch.length >= 9_000) {
        await insertNodeSamples(pool, batch);
        batch = [];
      }
    }
    if (batch.length) await insertNodeSamples(pool, batch);
    await pool.query(
      `INSERT INTO alert_rules (organization_id, name, type, target_kind, params)
       SELECT id, 'lag', 'lag', 'org-nodes', '{"firing": 10}'::jsonb FROM organizations WHERE id LIKE 'bench-org-%'`,
    );
  } finally {
    await pool.end();
  }
  console.log(
    `seeded ${ORGS} organizations, ${NODES} nodes, ${NODES * SAMPLES} samples in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function cloneOf(serverUrl: string, template: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${template}_run_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  await admin.end();
  const url = serverUrl.replace(/\/[^/]*$/, `/${name}`);
  return {
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Pids of the PostgreSQL backends serving the bench database, so other users of the shared server do not count. */
async function listBackendPids(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  return rows.map((row) => row.pid);
}

interface RunResult {
  seconds: number;
  alertStates: number;
  cursors: number;
  workerCpu: number;
  postgresCpu: number;
}

async function run(url: string, workers: number): Promise<RunResult> {
  const prefix = uniquePrefix();
  const redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
  const target: QueueTarget = { connection: redis, prefix };
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const children: ChildProcess[] = [];
  try {
    for (let w = 0; w < workers; w++) {
      const profile = CPU_PROF_DIR ? ["--cpu-prof", "--cpu-prof-dir", path.join(CPU_PROF_DIR, `${workers}w`)] : [];
      const child = spawn(process.execPath, [...profile, "--import", "tsx", "src/main.ts"], {
        cwd: workerDir,
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: url,
          REDIS_URL: SHARED_REDIS_URL,
          QUEUE_PREFIX: prefix,
          WORKER_ID: `bench-${w}`,
          WORKER_HEALTH_HOST: "127.0.0.1",
          WORKER_HEALTH_PORT: "0",
          WORKER_REGISTER_SCHEDULES: "false",
          WORKER_INGEST_ENABLED: "false",
          WORKER_PROBE_ENABLED: "false",
          WORKER_MAINTENANCE_ENABLED: "false",
          WORKER_NOTIFY_ENABLED: "false",
          WORKER_HEARTBEAT_INTERVAL_MS: "500",
          ADVISOR_BATCH_SIZE: "10000",
          SECRETS_ENCRYPTION_KEY: "bench-secrets-key-material-0123456789abcdef",
          LOG_LEVEL: "warn",
        },
        stdio: ["ignore", "inherit", "inherit"],
      });
      children.push(child);
    }
    await waitFor(
      "every worker's heartbeat",
      async () =>
        Number((await pool.query("SELECT count(*) AS n FROM worker_heartbeats WHERE id LIKE 'bench-%'")).rows[0].n) ===
        workers,
      { timeoutMs: 120_000, intervalMs: 100 },
    );
    const started = performance.now();
    // A backend that starts during the round counts whole; one that ends during it is missed (the
    // workers' pools keep theirs open for the whole round).
    const cpu = createCpuMeter();
    const sampleCpu = async (startsNow: boolean) =>
      cpu.sample({ workers: children.map((c) => c.pid ?? 0), postgres: await listBackendPids(pool) }, startsNow);
    await sampleCpu(true);
    for (let index = 0; index < SHARDS; index++) {
      const shard = SHARDS > 1 ? { shard: { index, count: SHARDS } } : {};
      await getQueue("alerts", target).add("alerts-evaluate", { task: "evaluate", ...shard });
      await getQueue("advisor", target).add("advisor-sweep", { task: "sweep", ...shard });
    }
    const done = async () => {
      const [a, b] = await Promise.all([
        getQueue("alerts", target).getJobCounts("completed", "failed"),
        getQueue("advisor", target).getJobCounts("completed", "failed"),
      ]);
      if ((a.failed ?? 0) + (b.failed ?? 0) > 0) throw new Error("a sweep job failed");
      return (a.completed ?? 0) + (b.completed ?? 0) === 2 * SHARDS;
    };
    await waitFor("every shard job", done, { timeoutMs: 3_600_000, intervalMs: 100 });
    const seconds = (performance.now() - started) / 1000;
    await sampleCpu(false);
    if (values.timeline) await printTimeline(target);
    const totals = cpu.totals();
    const workerCpu = (totals.workers ?? 0) / 1000;
    const postgresCpu = (totals.postgres ?? 0) / 1000;
    const alertStates = Number((await pool.query("SELECT count(*) AS n FROM alert_states")).rows[0].n);
    const cursors = Number((await pool.query("SELECT count(*) AS n FROM advisor_node_cursors")).rows[0].n);
    return { seconds, alertStates, cursors, workerCpu, postgresCpu };
  } finally {
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    }
    await pool.end();
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
  }
}

/** Each shard job's start and end (s after the first job started), to see how a round was shared. */
async function printTimeline(target: QueueTarget): Promise<void> {
  const jobs = (
    await Promise.all(
      (["alerts", "advisor"] as const).map(async (queue) =>
        (await getQueue(queue, target).getJobs(["completed"])).map((job) => ({ queue, job })),
      ),
    )
  ).flat();
  const t0 = Math.min(...jobs.map(({ job }) => job.processedOn ?? Infinity));
  const rows = jobs
    .map(({ queue, job }) => ({
      label: `${queue}#${(job.data as { shard?: { index: number } }).shard?.index ?? 0}`,
      start: ((job.processedOn ?? t0) - t0) / 1000,
      end: ((job.finishedOn ?? t0) - t0) / 1000,
    }))
    .sort((a, b) => a.start - b.start);
  for (const r of rows) console.log(`  ${r.label.padEnd(10)} ${r.start.toFixed(2)}–${r.end.toFixed(2)} s`);
}

async function main(): Promise<void> {
  const base = await createTestDatabase();
  const serverUrl = base.url.replace(/\/[^/]*$/, "/postgres");
  try {
    await seed(base.url);
    await base.pool.end();
    await base.prisma.$disconnect();
    console.log(`sweep round: alert evaluation + advisor sweep, ${SHARDS} shard job(s) each`);
    const results: Array<{ workers: number; seconds: number }> = [];
    for (const workers of WORKER_COUNTS) {
      const copy = await cloneOf(serverUrl, base.name);
      try {
        const r = await run(copy.url, workers);
        results.push({ workers, seconds: r.seconds });
        console.log(
          `${workers} worker process(es): ${r.seconds.toFixed(1)} s (${r.alertStates} alert states, ${r.cursors} nodes evaluated); ` +
            `CPU: workers ${r.workerCpu.toFixed(1)} s, postgres backends of the bench database ${r.postgresCpu.toFixed(1)} s; ` +
            `load average ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]}`,
        );
        if (r.alertStates !== NODES || r.cursors !== NODES) throw new Error("a sweep did not cover every node once");
      } finally {
        await copy.drop();
      }
    }
    const one = results.find((r) => r.workers === 1);
    for (const r of results)
      if (one && r.workers > 1)
        console.log(`speed-up with ${r.workers} workers: ${(one.seconds / r.seconds).toFixed(2)}×`);
  } finally {
    // The template's own pool and client are closed above (a template must have no sessions).
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${base.name}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
