/**
 * Full ranking round from rollups (not part of the test suite).
 *
 *   npx tsx bench/rank-directory.ts [--endpoints 3000] [--regions 3] [--days 7] [--old-every 1800]
 *                                   [--recent-hours 2] [--sample 150] [--rounds 3] [--keep] [--reuse NAME]
 *                                   [--no-vacuum]
 *
 * A fresh plain-PostgreSQL database: --endpoints endpoints of one network probed from --regions server
 * vantage points (one per region) over --days days. Probes are generated server-side: every 30 s for the
 * last --recent-hours hours (what a steady ranking round reads raw) and every --old-every seconds before
 * that (older probes only reach a round through the hourly rollups, whose row count does not depend on
 * the probe interval; the thinning only keeps the bench's load and backfill time bounded). Endpoints
 * differ in latency, failures and lag.
 *
 * 1. Backfill: one ranking run 10 minutes before "now" builds the rollups from raw (reported).
 * 2. --rounds timed full ranking rounds at "now" (rankDirectory: rollup pass over the recent raw probes,
 *    1 h / 24 h / 7 d windows from the rollups + raw tail, all views scored, snapshots written). Before
 *    each round, outside its timed window, VACUUM (ANALYZE) of the tables a round reads and writes (timed
 *    and printed on its own line): production's PostgreSQL runs autovacuum, this machine's CI setting
 *    (autovacuum = off) does not, and without it the rounds measure a state production never has (stale
 *    statistics after the backfill, so bad plans; the rollup and snapshot tables bloated with the dead
 *    rows of earlier rounds). --no-vacuum skips it (the old behaviour, for comparison).
 * 3. Reference in the same run: a separate network of --sample endpoints (taken from the same
 *    generator) is ranked by rankDirectoryFromRaw (every raw probe) and by rankDirectory; the orders
 *    per window and view are compared (Kendall tau, and pairs more than one score point apart).
 *
 * --keep leaves the database (its name is printed); --reuse NAME runs steps 2 and 3 on such a kept
 * database at the "now" it was generated for (stored in bench_rank_meta; migrations added since it was
 * kept are applied first), skipping generation and the backfill: the rollups are already there, so its rounds are steady ones. The size options are then the
 * kept database's. Drop it by hand when done (DROP DATABASE NAME).
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { refreshRollups } from "@rpcpulse/db/platform";
import { runMigrations } from "@rpcpulse/db/migrate";
import { parseDatabaseUrl } from "../packages/db/src/migrate/ensure-database.js";
import { createTestDatabase, DEFAULT_TEST_SERVER_URL, type TestDatabase } from "../packages/db/src/testing.js";
import { rankDirectory, rankDirectoryFromRaw } from "@rpcpulse/services/directory";

const { values } = parseArgs({
  options: {
    endpoints: { type: "string", default: "3000" },
    regions: { type: "string", default: "3" },
    days: { type: "string", default: "7" },
    "old-every": { type: "string", default: "1800" },
    "recent-hours": { type: "string", default: "2" },
    sample: { type: "string", default: "150" },
    rounds: { type: "string", default: "3" },
    keep: { type: "boolean", default: false },
    reuse: { type: "string" },
    "no-vacuum": { type: "boolean", default: false },
  },
});
let ENDPOINTS = Number(values.endpoints);
const REGIONS = Number(values.regions);
const DAYS = Number(values.days);
const OLD_EVERY_S = Number(values["old-every"]);
const RECENT_H = Number(values["recent-hours"]);
let SAMPLE = Number(values.sample);
const ROUNDS = Number(values.rounds);
const HOUR = 3_600_000;
/**
 * The tables a ranking round (rankDirectory) reads or writes, from its SQL in packages/db/src/directory/*
 * (probe-results.ts among them: probe_results is partitioned, VACUUM and ANALYZE take its partitions).
 */
const ROUND_TABLES = [
  "probe_results",
  "probe_rank_dirty",
  "probe_rank_5m",
  "probe_rank_1h",
  "probe_rank_1d",
  "endpoint_freshness_minutes",
  "endpoint_rankings",
  "network_heads",
  "public_endpoints",
  "endpoint_capabilities",
  "endpoint_claims",
  "networks",
  "vantage_points",
  "nodes",
  "organizations",
  "chains",
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

type Sql = Awaited<ReturnType<typeof createTestDatabase>>["pool"];

/** utime + stime of a process in ms (Linux /proc; USER_HZ 100), or undefined once it has exited. */
function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * CPU of the PostgreSQL backends serving the bench database (and their parallel workers) while `fn`
 * runs: pg_stat_activity polled every 100 ms from a separate session, each process's CPU counted from
 * its first sighting (from zero for processes started meanwhile). A parallel worker's last tick before
 * it exits can be missed, so this slightly undercounts.
 */
async function withPgCpu<T>(url: string, db: string, fn: () => Promise<T>): Promise<{ value: T; pgMs: number }> {
  const watcher = new pg.Client({ connectionString: url });
  await watcher.connect();
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const poll = async (initial: boolean) => {
    const { rows } = await watcher.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [db],
    );
    for (const { pid } of rows) {
      const ms = processCpuMs(pid);
      if (ms === undefined) continue;
      if (!first.has(pid)) first.set(pid, initial ? ms : 0);
      last.set(pid, ms);
    }
  };
  await poll(true);
  let polling = Promise.resolve();
  const timer = setInterval(() => {
    polling = polling.then(() => poll(false)).catch(() => undefined);
  }, 100);
  try {
    const value = await fn();
    clearInterval(timer);
    await polling;
    await poll(false);
    let pgMs = 0;
    for (const [pid, ms] of last) pgMs += ms - (first.get(pid) ?? 0);
    return { value, pgMs };
  } finally {
    clearInterval(timer);
    await watcher.end();
  }
}

async function addNetwork(sql: Sql, slug: string, count: number): Promise<string> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO networks (id, slug, chain_slug, name, block_interval_ms, testnet)
     VALUES (gen_random_uuid(), $1, 'hive', $1, 3000, true) RETURNING id`,
    [slug],
  );
  const id = rows[0]!.id;
  await sql.query(
    `INSERT INTO public_endpoints (id, network_id, api_family, url, name, status)
     SELECT gen_random_uuid(), $1, 'hive', 'https://e' || i || '.' || $3 || '.example', 'e' || i, 'active'
     FROM generate_series(1, $2) i`,
    [id, count, slug],
  );
  return id;
}

/** Probes of a network's endpoints from every vantage point, every `every` s in [from, to). */
async function generate(sql: Sql, networkId: string, from: Date, to: Date, everyS: number): Promise<void> {
  // Latency 20..420 ms by endpoint (+ up to 30 ms jitter, + 25 ms per region), 1 in 40 endpoints lags
  // 20 blocks, failures from 0.5 % to ~10 % by endpoint.
  await sql.query(
    `INSERT INTO probe_results (time, endpoint_id, vantage_point_id, ok, http_status, error_class, rate_limited,
       ttfb_ms, total_ms, head_block, head_time)
     SELECT t + (v.n * interval '7 seconds') + (e.n % 20) * interval '1 second', e.id, v.id,
       f.ok, CASE WHEN f.ok THEN 200 ELSE 503 END, CASE WHEN f.ok THEN NULL ELSE 'http' END, false,
       CASE WHEN f.ok THEN 20 + (e.n * 37) % 400 + abs(hashint4(e.n * 31 + extract(epoch FROM t)::int)) % 30 + v.n * 25 END,
       CASE WHEN f.ok THEN 25 + (e.n * 37) % 400 + v.n * 25 END,
       CASE WHEN f.ok THEN extract(epoch FROM t)::bigint / 3 + 40 - CASE WHEN e.n % 40 = 0 THEN 20 ELSE 0 END END,
       CASE WHEN f.ok THEN t - CASE WHEN e.n % 40 = 0 THEN interval '60 seconds' ELSE interval '1 second' END END
     FROM generate_series($2::timestamptz, $3::timestamptz - interval '1 second', $4::interval) t
       CROSS JOIN (SELECT id, row_number() OVER (ORDER BY id)::int AS n FROM public_endpoints WHERE network_id = $1) e
       CROSS JOIN (SELECT id, row_number() OVER (ORDER BY id)::int AS n FROM vantage_points WHERE kind = 'server') v
       CROSS JOIN LATERAL (SELECT abs(hashint4(e.n * 7919 + v.n * 104729 + extract(epoch FROM t)::int)) % 1000
                                  >= 5 + (e.n * 13) % 100 AS ok) f`,
    [networkId, from, to, `${everyS} seconds`],
  );
}

interface Snap {
  window: string;
  region: string;
  endpoint_id: string;
  rank: number;
  score: number;
}

async function snapshot(sql: Sql, network: string): Promise<Snap[]> {
  const { rows } = await sql.query<Snap>(
    `SELECT "window", region, endpoint_id, rank, score FROM endpoint_rankings WHERE network = $1`,
    [network],
  );
  return rows;
}

function compareOrders(raw: Snap[], rolled: Snap[]): { tauMin: number; separatedSwaps: number; views: number } {
  const groups = new Map<string, Snap[]>();
  for (const s of raw) groups.set(`${s.window}|${s.region}`, [...(groups.get(`${s.window}|${s.region}`) ?? []), s]);
  // Orders by score (ties by id): the stored ranks carry hysteresis against each job's previous runs.
  const byScore = (list: Snap[]) =>
    new Map(
      [...list]
        .sort((a, b) => b.score - a.score || a.endpoint_id.localeCompare(b.endpoint_id))
        .map((s, i) => [`${s.window}|${s.region}|${s.endpoint_id}`, i]),
    );
  const rolledRank = byScore(rolled);
  const rawRank = byScore(raw);
  let tauMin = 1;
  let separatedSwaps = 0;
  for (const [key, list] of groups) {
    let c = 0;
    let d = 0;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i]!;
        const b = list[j]!;
        const ra = rolledRank.get(`${key}|${a.endpoint_id}`) ?? NaN;
        const rb = rolledRank.get(`${key}|${b.endpoint_id}`) ?? NaN;
        const same =
          Math.sign(
            (rawRank.get(`${key}|${a.endpoint_id}`) ?? NaN) - (rawRank.get(`${key}|${b.endpoint_id}`) ?? NaN),
          ) === Math.sign(ra - rb);
        if (same) c++;
        else {
          d++;
          if (Math.abs(a.score - b.score) > 1) separatedSwaps++;
        }
      }
    }
    tauMin = Math.min(tauMin, (c - d) / Math.max(1, c + d));
  }
  return { tauMin, separatedSwaps, views: groups.size };
}

/** A kept database (--keep) opened again by name, with the "now" and sizes it was generated for. */
async function openKept(name: string): Promise<{ db: Pick<TestDatabase, "name" | "url" | "pool">; now: Date }> {
  const url = parseDatabaseUrl(DEFAULT_TEST_SERVER_URL).withDatabase(name);
  // A database kept by an older version gets the migrations added since (new tables start empty).
  const migrator = new pg.Client({ connectionString: url });
  await migrator.connect();
  try {
    const report = await runMigrations(migrator);
    if (report.applied.length > 0) console.log(`migrations applied to the kept database: ${report.applied.join(", ")}`);
  } finally {
    await migrator.end();
  }
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  const { rows } = await pool.query<{ now: Date; endpoints: number; sample: number }>(
    "SELECT now, endpoints, sample FROM bench_rank_meta",
  );
  const meta = rows[0];
  if (!meta) throw new Error(`${name} has no bench_rank_meta row`);
  ENDPOINTS = meta.endpoints;
  SAMPLE = meta.sample;
  return { db: { name, url, pool }, now: meta.now };
}

/** Networks, probes, decisions and the first (backfill) run of a fresh database at `now`. */
async function prepare(sql: Sql, now: Date): Promise<void> {
  const start = new Date(now.getTime() - DAYS * 24 * HOUR - HOUR);
  const recentFrom = new Date(now.getTime() - RECENT_H * HOUR);
  for (let r = 1; r <= REGIONS; r++) {
    await sql.query(`INSERT INTO vantage_points (name, region, kind) VALUES ($1, $2, 'server')`, [
      `server:r${r}`,
      `r${r}`,
    ]);
  }
  const main = await addNetwork(sql, "bench-main", ENDPOINTS - SAMPLE);
  const sample = await addNetwork(sql, "bench-sample", SAMPLE);
  const load = await timed(async () => {
    for (const net of [main, sample]) {
      await generate(sql, net, start, recentFrom, OLD_EVERY_S);
      await generate(sql, net, recentFrom, now, 30);
      // The consensus job's decisions every 10 s (head = the generator's head at that time).
      await sql.query(
        `INSERT INTO network_heads (network_id, time, anchor_time, head_block, considered, agreeing, quorum)
           SELECT $1, t, t, extract(epoch FROM t)::bigint / 3 + 40, $4, $4, 2
           FROM generate_series($2::timestamptz, $3::timestamptz, interval '10 seconds') t`,
        [net, start, now, REGIONS],
      );
    }
    // The worker's 1-minute/1-hour probe rollups (30-day availability reads them), as in production.
    await refreshRollups(sql, { from: start, to: now }, new Date(now.getTime() - 5 * 60_000));
    await sql.query("ANALYZE");
  });
  const probes = (await sql.query<{ n: string }>("SELECT count(*) AS n FROM probe_results")).rows[0]!.n;
  console.log(
    `${ENDPOINTS} endpoints × ${REGIONS} regions × ${DAYS} d: ${probes} raw probes (every 30 s for ${RECENT_H} h, ` +
      `every ${OLD_EVERY_S} s before), generated in ${(load.ms / 1000).toFixed(1)} s`,
  );

  const backfill = await timed(() => rankDirectory({ pool: sql }, { now: new Date(now.getTime() - 10 * 60_000) }));
  const buckets = (
    await sql.query<{ m: string; h: string }>(
      "SELECT (SELECT count(*) FROM probe_rank_5m) AS m, (SELECT count(*) FROM probe_rank_1h) AS h",
    )
  ).rows[0]!;
  console.log(
    `backfill (first run builds the rollups from raw): ${(backfill.ms / 1000).toFixed(1)} s; ` +
      `${buckets.h} hourly rows, ${buckets.m} 5-minute rows`,
  );
  await sql.query(
    "CREATE TABLE bench_rank_meta (now timestamptz NOT NULL, endpoints int NOT NULL, sample int NOT NULL)",
  );
  await sql.query("INSERT INTO bench_rank_meta VALUES ($1, $2, $3)", [now, ENDPOINTS, SAMPLE]);
}

async function main(): Promise<void> {
  const kept = values.reuse ? await openKept(values.reuse) : undefined;
  const fresh = kept ? undefined : await createTestDatabase();
  const db = kept?.db ?? (fresh as TestDatabase);
  try {
    const sql = db.pool;
    const now = kept?.now ?? new Date(Math.floor(Date.now() / 60_000) * 60_000);
    console.log(`database ${db.name}, now ${now.toISOString()}${kept ? " (reused: no generation, no backfill)" : ""}`);
    if (!kept) await prepare(sql, now);

    const rounds: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      if (!values["no-vacuum"]) {
        // Autovacuum's work in production (see the header), done here between rounds, outside the timing.
        const vacuum = await timed(() => sql.query(`VACUUM (ANALYZE) ${ROUND_TABLES.join(", ")}`));
        console.log(
          `vacuum analyze (autovacuum's work in production, not in the round): ${(vacuum.ms / 1000).toFixed(1)} s`,
        );
      }
      const nodeCpu = process.cpuUsage();
      const run = await withPgCpu(db.url, db.name, () => timed(() => rankDirectory({ pool: sql }, { now })));
      const t = run.value;
      const used = process.cpuUsage(nodeCpu);
      const nodeMs = (used.user + used.system) / 1000;
      rounds.push(t.ms);
      cpu.push(nodeMs + run.pgMs);
      const w = t.value.timings;
      const sec = (ms = 0) => (ms / 1000).toFixed(2);
      console.log(
        `round ${i + 1}: ${sec(t.ms)} s wall at load ${loadavg()[0]!.toFixed(1)}, CPU ${sec(nodeMs + run.pgMs)} s ` +
          `(node ${sec(nodeMs)} s + PostgreSQL ${sec(run.pgMs)} s; ${t.value.snapshots} snapshots, ${t.value.endpoints} endpoints): ` +
          `rollup pass ${sec(w?.rollupMs)} s, window sums ${sec(w?.windowsMs)} s, scoring + snapshots ${sec(w?.scoreMs)} s`,
      );
    }

    const rolled = await snapshot(sql, "bench-sample");
    await sql.query("DELETE FROM endpoint_rankings WHERE network = 'bench-sample'");
    const ref = await timed(() => rankDirectoryFromRaw({ pool: sql }, { now, networks: ["bench-sample"] }));
    const raw = await snapshot(sql, "bench-sample");
    const cmp = compareOrders(raw, rolled);
    const perEndpointRaw = ref.ms / SAMPLE;
    console.log(
      `reference: raw ranking of the ${SAMPLE}-endpoint sample ${(ref.ms / 1000).toFixed(1)} s ` +
        `(≈ ${((perEndpointRaw * ENDPOINTS) / 1000).toFixed(0)} s for ${ENDPOINTS} endpoints at this thinning)`,
    );
    console.log(
      `order check over ${cmp.views} views of the sample: min Kendall tau ${cmp.tauMin.toFixed(3)}, ` +
        `pairs > 1 score point apart swapped: ${cmp.separatedSwaps}`,
    );
    console.log(
      `median full ranking round: ${(median(rounds) / 1000).toFixed(2)} s wall, ` +
        `${(median(cpu) / 1000).toFixed(2)} s CPU (node + PostgreSQL) (target < 10 s)`,
    );
  } finally {
    if (values.keep || kept) {
      console.log(`kept database ${db.name}`);
      await db.pool.end();
      await fresh?.prisma.$disconnect();
    } else await fresh?.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
