/**
 * Fleet load: --agents simulated agents (one process multiplexing them over keep-alive sockets)
 * each push one batch every --interval seconds, as rpcpulse-agent does (one sample per batch, the
 * wire format of @rpcpulse/domain, gzip'd, 10–50 remote IPs per node), into 2 ingest processes
 * and 2 worker processes (apps/ingest and apps/worker, src/main.ts) on a private redis-server and a
 * fresh PostgreSQL database. Goal (issue 13): receipt→commit p95 < 2 s sustained, nothing lost.
 * Not part of the test suite.
 *
 *   npx tsx bench/fleet-load.ts [--agents 10000] [--minutes 10] [--interval 10]
 *                               [--ingest 2] [--workers 2] [--sockets 128] [--min-ips 10] [--max-ips 50]
 *                               [--worker-concurrency N] [--group-batches N] [--group-ms MS] [--profile-dir DIR]
 *
 * The load generator stays cheap beside what it measures: each agent's batch is its remote-IP
 * count's JSON template with the batch's own sequence, times and values put in (the same text
 * makeAgentBatch gives, checked at start), gzip'd at zlib's default level as rpcpulse-agent does;
 * the agents share keep-alive sockets (--sockets per ingest process).
 *
 * Reports receipt→commit p50/p95/p99 (overall and per minute), rows/s, CPU per component from
 * /proc/<pid>/stat (load generator, ingest, worker, redis, this database's PostgreSQL backends,
 * PostgreSQL's background processes), database size per node per day, where the time goes, and
 * rows counted in the database against the batches accepted.
 */
import { Agent } from "node:http";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { createTestDatabase } from "@rpcpulse/db/testing";
import pg from "pg";
import { checkBatchTemplate, createBatchTemplate, type BatchTemplate } from "./lib/agent-batch-template.js";
import { watchCommits } from "./lib/commit-watcher.js";
import { createCpuMeter } from "./lib/process-cpu.js";
import {
  readFleetSizes,
  scrapeMetrics,
  startSelfProfile,
  sumMetric,
  WATCHER_APPLICATION_NAME,
} from "./lib/fleet-load-support.js";
import {
  freePort,
  median,
  percentile,
  postBatch,
  seedNodes,
  startApp,
  startPrivateRedis,
  table,
  waitHealthy,
} from "./ingest-support.js";

const { values: args } = parseArgs({
  options: {
    agents: { type: "string", default: "10000" },
    minutes: { type: "string", default: "10" },
    interval: { type: "string", default: "10" },
    ingest: { type: "string", default: "2" },
    workers: { type: "string", default: "2" },
    /** Keep-alive sockets per ingest process (the agents share them). */
    sockets: { type: "string", default: "128" },
    "min-ips": { type: "string", default: "10" },
    "max-ips": { type: "string", default: "50" },
    /** WORKER_INGEST_CONCURRENCY of each worker (jobs in flight, each waiting for its flush); default: the app's. */
    "worker-concurrency": { type: "string" },
    /** INGEST_QUEUE_GROUP_MAX_BATCHES of each ingest process (1 = one queue job per batch); default: the app's. */
    "group-batches": { type: "string" },
    /** INGEST_QUEUE_GROUP_MS of each ingest process; default: the app's. */
    "group-ms": { type: "string" },
    /** Write V8 CPU profiles of the ingest and worker processes (node --cpu-prof) and of this one into this directory. */
    "profile-dir": { type: "string" },
  },
});
const AGENTS = Number(args.agents);
const DURATION_MS = Number(args.minutes) * 60_000;
const INTERVAL_MS = Number(args.interval) * 1000;
const INGESTS = Number(args.ingest);
const WORKERS = Number(args.workers);
const MIN_IPS = Number(args["min-ips"]);
const MAX_IPS = Number(args["max-ips"]);
const METRICS_TOKEN = "bench-fleet-load-metrics";
const TARGET_P95_MS = 2_000;

const fmtMs = (ms: number) => (Number.isFinite(ms) ? `${Math.round(ms).toLocaleString("en-US")} ms` : "-");
/** Largest value (Math.max(...xs) overflows the stack past ~100k values). */
const maxOf = (xs: readonly number[]) => xs.reduce((a, b) => (b > a ? b : a), -Infinity);
const log = (text: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${text}`);

async function main() {
  if (![AGENTS, DURATION_MS, INTERVAL_MS, INGESTS, WORKERS].every((n) => Number.isFinite(n) && n > 0))
    throw new Error("--agents, --minutes, --interval, --ingest and --workers must be positive numbers");
  const loadAtStart = loadavg();
  const redis = await startPrivateRedis();
  const db = await createTestDatabase();
  const apps: Awaited<ReturnType<typeof startApp>>[] = [];
  try {
    const seedStarted = performance.now();
    const nodes = await seedNodes(db, AGENTS);
    log(`seeded ${AGENTS.toLocaleString()} nodes with tokens in ${fmtMs(performance.now() - seedStarted)}`);

    const common = { DATABASE_URL: db.url, REDIS_URL: redis.url, QUEUE_PREFIX: "bench", METRICS_TOKEN };
    const profile = args["profile-dir"] ? ["--cpu-prof", "--cpu-prof-dir", args["profile-dir"]] : [];
    const ingestPorts: number[] = [];
    const workerPorts: number[] = [];
    for (let i = 0; i < INGESTS; i++) {
      const port = await freePort();
      ingestPorts.push(port);
      // One process each (INGEST_WORKERS=1): the load generator spreads agents over the ports.
      apps.push(
        await startApp(
          "ingest",
          {
            ...common,
            INGEST_HOST: "127.0.0.1",
            INGEST_PORT: String(port),
            INGEST_WORKERS: "1",
            ...(args["group-batches"] ? { INGEST_QUEUE_GROUP_MAX_BATCHES: args["group-batches"] } : {}),
            ...(args["group-ms"] ? { INGEST_QUEUE_GROUP_MS: args["group-ms"] } : {}),
          },
          "ingest listening",
          profile,
        ),
      );
    }
    for (let i = 0; i < WORKERS; i++) {
      const port = await freePort();
      workerPorts.push(port);
      apps.push(
        await startApp(
          "worker",
          {
            ...common,
            WORKER_HEALTH_HOST: "127.0.0.1",
            WORKER_HEALTH_PORT: String(port),
            WORKER_REGISTER_SCHEDULES: "false",
            WORKER_MAINTENANCE_ENABLED: "false",
            ...(args["worker-concurrency"] ? { WORKER_INGEST_CONCURRENCY: args["worker-concurrency"] } : {}),
          },
          "worker started",
          profile,
        ),
      );
    }
    for (const port of ingestPorts) await waitHealthy(port);
    const ingestPids = apps.slice(0, INGESTS).map((a) => a.child.pid!);
    const workerPids = apps.slice(INGESTS).map((a) => a.child.pid!);
    log(`ingest pids ${ingestPids.join(", ")}; worker pids ${workerPids.join(", ")}; redis pid ${redis.pid}`);

    // Agents: phases spread evenly over the interval; 10–50 remote IPs each, fixed per node.
    const templates = new Map<number, BatchTemplate>();
    const templateFor = (ips: number) => {
      let template = templates.get(ips);
      if (!template) {
        checkBatchTemplate(ips, [
          { seq: 1, at: new Date() },
          { seq: 70_001 + ips, at: new Date(Date.now() + 123_457) },
        ]);
        template = createBatchTemplate(ips);
        templates.set(ips, template);
      }
      return template;
    };
    const agents = nodes.map((node, i) => {
      const ips = MIN_IPS + ((i * 7919) % (MAX_IPS - MIN_IPS + 1));
      return {
        ...node,
        port: ingestPorts[i % INGESTS]!,
        ips,
        template: templateFor(ips),
        seq: 0,
        nextAt: 0,
        busy: false,
        spool: [] as { time: number; body: Buffer }[],
      };
    });
    const httpAgents = new Map(
      ingestPorts.map((p) => [p, new Agent({ keepAlive: true, maxSockets: Number(args.sockets) })]),
    );

    // Measurements.
    const latencies: { at: number; ms: number }[] = [];
    const httpMs: number[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    let accepted = 0;
    let acceptedIps = 0;
    let acceptedAsDuplicate = 0;
    let refused = 0;
    const spooled = () => agents.reduce((n, a) => n + a.spool.length, 0);
    let behindMs = 0;
    const ages: number[] = [];
    // The commit watcher's own connection, so its PostgreSQL work is told apart from the system's.
    const watcherClient = new pg.Client({ connectionString: db.url, application_name: WATCHER_APPLICATION_NAME });
    await watcherClient.connect();
    const commits = watchCommits(watcherClient, 50, (ms, receivedAt, sampleTime) => {
      latencies.push({ at: receivedAt, ms });
      ages.push(Date.now() - sampleTime);
    });
    const cpu = createCpuMeter();
    const pgPids = async () => {
      const { rows } = await db.pool.query<{ pid: number; datname: string | null; application_name: string }>(
        "SELECT pid, datname, application_name FROM pg_stat_activity WHERE pid <> pg_backend_pid()",
      );
      const ours = rows.filter((r) => r.datname === db.name);
      return {
        postgresBackends: ours.filter((r) => r.application_name !== WATCHER_APPLICATION_NAME).map((r) => r.pid),
        postgresBackground: rows.filter((r) => r.datname === null).map((r) => r.pid),
        "postgres: the bench's commit watcher": ours
          .filter((r) => r.application_name === WATCHER_APPLICATION_NAME)
          .map((r) => r.pid),
      };
    };
    const groups = async () => ({
      "load generator (this process)": [process.pid],
      ingest: ingestPids,
      worker: workerPids,
      redis: [redis.pid],
      ...(await pgPids()),
    });
    const scrapeAll = async () => ({
      workers: await Promise.all(workerPorts.map((p) => scrapeMetrics(p, METRICS_TOKEN))),
      ingests: await Promise.all(ingestPorts.map((p) => scrapeMetrics(p, METRICS_TOKEN))),
    });

    const selfProfile = args["profile-dir"] ? await startSelfProfile() : undefined;
    const t0 = performance.now();
    agents.forEach((a, i) => (a.nextAt = t0 + (i / AGENTS) * INTERVAL_MS));
    cpu.sample(await groups(), true);
    const metrics0 = await scrapeAll();
    let maxWaiting = 0;
    let maxOldestS = 0;

    // As rpcpulse-agent does: one request at a time per agent; a batch collected while the previous
    // one is still being sent waits in the agent's spool, and a 503/429 keeps it there for a retry.
    // Receipt is when the request gets its socket (the bench's client pool stands in for the
    // agents' own connections); the sample's age at commit includes the spool wait.
    let stopping = false;
    const pump = (a: (typeof agents)[number]) => {
      const item = a.spool[0];
      if (!item || stopping) {
        a.busy = false;
        return;
      }
      a.busy = true;
      let receivedAt = performance.now();
      postBatch(httpAgents.get(a.port)!, a.port, a.token, item.body, () => {
        receivedAt = performance.now();
        commits.expect(a.nodeId, item.time, receivedAt);
      })
        .then(
          (status) => status,
          () => 0,
        )
        .then((status) => {
          httpMs.push(performance.now() - receivedAt);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 202 || status === 200) {
            // 200 "duplicate": an earlier attempt of this batch was queued after all (its answer was
            // lost or came too late, e.g. a 503 past the Redis deadline); it is stored once.
            accepted++;
            acceptedIps += a.ips;
            if (status === 200) acceptedAsDuplicate++;
            a.spool.shift();
            pump(a);
            return;
          }
          commits.forget(a.nodeId, item.time);
          if (status === 503 || status === 429 || status === 0) setTimeout(() => pump(a), 1_000);
          else {
            refused++;
            a.spool.shift();
            pump(a);
          }
        });
    };
    const collect = (a: (typeof agents)[number]) => {
      a.seq++;
      const at = new Date();
      a.spool.push({ time: at.getTime(), body: gzipSync(Buffer.from(a.template.render(a.seq, at))) });
      sent++;
      if (!a.busy) pump(a);
    };

    // Progress every interval: what was sent, accepted, committed, and the last interval's p95.
    let lastReport = t0;
    const progress = async () => {
      const now = performance.now();
      const recent = latencies.filter((l) => l.at >= lastReport - INTERVAL_MS && l.at < now).map((l) => l.ms);
      lastReport = now;
      const workers = await Promise.all(workerPorts.map((p) => scrapeMetrics(p, METRICS_TOKEN).catch(() => "")));
      const waiting = sumMetric(workers[0] ?? "", "rpcpulse_queue_jobs", 'state="waiting"');
      const oldest = sumMetric(workers[0] ?? "", "rpcpulse_queue_oldest_waiting_age_seconds", 'queue="ingest"');
      maxWaiting = Math.max(maxWaiting, waiting);
      maxOldestS = Math.max(maxOldestS, oldest);
      cpu.sample(await groups());
      log(
        `${((now - t0) / 1000).toFixed(0)} s: sent ${sent.toLocaleString()}, accepted ${accepted.toLocaleString()}, ` +
          `committed ${latencies.length.toLocaleString()}, outstanding ${commits.outstanding()}, in agents' spools ${spooled()}, ` +
          `queue waiting ${waiting}, recent p95 ${fmtMs(recent.length ? percentile(recent, 95) : NaN)}, ` +
          `generator behind ${fmtMs(behindMs)}, load ${loadavg()[0]!.toFixed(2)}`,
      );
    };

    // The send loop: every 20 ms, every agent whose time has come pushes one batch. The agents
    // are due in their order (phases ascending, all with the same interval): a cursor goes round.
    const endAt = t0 + DURATION_MS;
    let nextProgress = t0 + INTERVAL_MS;
    let cursor = 0;
    let reporting = false;
    while (performance.now() < endAt) {
      const now = performance.now();
      let late = 0;
      for (let n = 0; n < AGENTS; n++) {
        const a = agents[cursor]!;
        if (a.nextAt > now || a.nextAt >= endAt) break;
        late = Math.max(late, now - a.nextAt);
        collect(a);
        a.nextAt += INTERVAL_MS;
        cursor = (cursor + 1) % AGENTS;
      }
      behindMs = Math.max(behindMs, late);
      // Progress reads the apps' /metrics and the database: not awaited, so a busy worker that is
      // slow to answer its scrape does not stop the agents sending (it once held the loop ~20 s).
      if (now >= nextProgress && !reporting) {
        nextProgress += INTERVAL_MS;
        reporting = true;
        void progress()
          .catch((error: unknown) => log(`progress not read: ${String(error)}`))
          .finally(() => (reporting = false));
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const sendMs = performance.now() - t0;
    while (reporting) await new Promise((r) => setTimeout(r, 20));
    log(`sending stopped after ${(sendMs / 1000).toFixed(0)} s; waiting for the last commits`);
    // Requests in flight finish; what is still in the agents' spools stays there (an agent keeps it).
    stopping = true;
    while (agents.some((a) => a.busy)) await new Promise((r) => setTimeout(r, 100));
    await commits.stop(600_000);
    const drainMs = performance.now() - t0 - sendMs;
    if (selfProfile) log(`load generator profile: ${await selfProfile.stop(args["profile-dir"]!)}`);
    cpu.sample(await groups());
    const metrics1 = await scrapeAll();
    const cpuTotals = cpu.totals();
    const totalMs = performance.now() - t0;
    const loadAtEnd = loadavg();

    // Nothing lost: rows in the database against what was accepted.
    const count = async (table: string) =>
      Number((await db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
    const storedSamples = await count("node_samples");
    const storedIps = await count("node_remote_ips");
    const sizes = await readFleetSizes(db.pool);
    const dataDays = sendMs / 86_400_000;
    const perNodeDay = (bytes: number) => bytes / AGENTS / dataDays;

    const all = latencies.map((l) => l.ms);
    const perMinute: (string | number)[][] = [["minute", "batches", "p50", "p95", "p99", "max"]];
    let worstMinuteP95 = 0;
    for (let m = 0; m * 60_000 < sendMs; m++) {
      const xs = latencies.filter((l) => l.at - t0 >= m * 60_000 && l.at - t0 < (m + 1) * 60_000).map((l) => l.ms);
      if (xs.length === 0) continue;
      worstMinuteP95 = Math.max(worstMinuteP95, percentile(xs, 95));
      perMinute.push([
        m + 1,
        xs.length,
        fmtMs(median(xs)),
        fmtMs(percentile(xs, 95)),
        fmtMs(percentile(xs, 99)),
        fmtMs(maxOf(xs)),
      ]);
    }

    const delta = (name: string, filter = "") =>
      metrics1.workers.reduce((n, text) => n + sumMetric(text, name, filter), 0) -
      metrics0.workers.reduce((n, text) => n + sumMetric(text, name, filter), 0);
    const ingestDelta = (name: string, filter = "") =>
      metrics1.ingests.reduce((n, text) => n + sumMetric(text, name, filter), 0) -
      metrics0.ingests.reduce((n, text) => n + sumMetric(text, name, filter), 0);
    const jobs = delta("rpcpulse_job_duration_seconds_count", 'queue="ingest"');
    const jobSeconds = delta("rpcpulse_job_duration_seconds_sum", 'queue="ingest"');
    const flushes = delta("rpcpulse_ingest_flush_duration_seconds_count");
    const flushSeconds = delta("rpcpulse_ingest_flush_duration_seconds_sum");
    const flushRows = delta("rpcpulse_ingest_flush_rows_sum");
    const serverRequests = ingestDelta("rpcpulse_http_request_duration_seconds_count", 'route="/v1/ingest"');
    const serverSeconds = ingestDelta("rpcpulse_http_request_duration_seconds_sum", 'route="/v1/ingest"');

    const p95 = percentile(all, 95);
    console.log(
      `\n${AGENTS.toLocaleString()} agents × one batch per ${INTERVAL_MS / 1000} s for ${(sendMs / 60_000).toFixed(1)} min ` +
        `into ${INGESTS} ingest + ${WORKERS} worker processes; ${MIN_IPS}–${MAX_IPS} remote IPs per node; ` +
        `load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(" ")}, at end ${loadAtEnd.map((l) => l.toFixed(2)).join(" ")} (2 CPUs)`,
    );
    console.log(`answers ${JSON.stringify(Object.fromEntries(statuses))}`);
    console.log(
      table([
        ["measure", "value", "goal", "verdict"],
        ["batches sent", sent, "", ""],
        ["batches accepted (202, or 200 duplicate on a retry)", accepted, "all", accepted === sent ? "met" : "MISSED"],
        ["  of them 200 duplicate (a retried batch queued at its earlier attempt)", acceptedAsDuplicate, "", ""],
        ["batches refused (4xx other than 429)", refused, "0", refused === 0 ? "met" : "MISSED"],
        ["batches still in agents' spools at the end", spooled(), "0", ""],
        ["receipt→commit p50", fmtMs(median(all)), "", ""],
        ["receipt→commit p95 (whole run)", fmtMs(p95), "< 2,000 ms", p95 < TARGET_P95_MS ? "met" : "MISSED"],
        [
          "receipt→commit p95, worst minute",
          fmtMs(worstMinuteP95),
          "< 2,000 ms",
          worstMinuteP95 < TARGET_P95_MS ? "met" : "MISSED",
        ],
        ["receipt→commit p99", fmtMs(percentile(all, 99)), "", ""],
        ["receipt→commit max", fmtMs(maxOf(all)), "", ""],
        [
          "sample age at commit (incl. spool wait) p50 / p95",
          `${fmtMs(median(ages))} / ${fmtMs(percentile(ages, 95))}`,
          "",
          "",
        ],
        [
          "node_samples rows stored / accepted",
          `${storedSamples} / ${accepted}`,
          "equal",
          storedSamples === accepted ? "met" : "MISSED",
        ],
        [
          "node_remote_ips rows stored / accepted",
          `${storedIps} / ${acceptedIps}`,
          "equal",
          storedIps === acceptedIps ? "met" : "MISSED",
        ],
        ["samples committed per s", Math.round(storedSamples / (sendMs / 1000)), "", ""],
        ["rows (samples + remote IPs) per s", Math.round((storedSamples + storedIps) / (sendMs / 1000)), "", ""],
        ["drain after the last send", fmtMs(drainMs), "", ""],
        ["load generator: most behind schedule", fmtMs(behindMs), "", ""],
      ]),
    );
    console.log("\nreceipt→commit per minute (by send time)");
    console.log(table(perMinute));

    const coreShare = (ms: number) => `${((ms / totalMs) * 100).toFixed(1)} %`;
    console.log(`\nCPU per component over ${(totalMs / 1000).toFixed(0)} s (% of one core; 2 cores = 200 %)`);
    console.log(
      table([
        ["component", "CPU s", "share of one core", "CPU ms per 1,000 batches"],
        ...Object.entries(cpuTotals).map(([group, ms]) => [
          group,
          ms / 1000,
          coreShare(ms),
          Math.round((ms / Math.max(1, accepted)) * 1000),
        ]),
      ]),
    );

    console.log("\ndatabase size (plain PostgreSQL, uncompressed; TimescaleDB compression not applied here)");
    console.log(
      table([
        ["relation", "bytes", "per node per day (extrapolated)"],
        ...sizes.map((s) => [
          s.relation,
          s.bytes,
          s.perDay ? `${(perNodeDay(s.bytes) / 1024 / 1024).toFixed(2)} MiB` : "fixed (one row per node)",
        ]),
      ]),
    );

    console.log("\nwhere the time goes");
    console.log(
      table([
        ["stage", "value"],
        [
          "HTTP round trip at the agent (send → 202) p50 / p95",
          `${fmtMs(median(httpMs))} / ${fmtMs(percentile(httpMs, 95))}`,
        ],
        ["ingest request time (server, mean)", fmtMs((serverSeconds / Math.max(1, serverRequests)) * 1000)],
        ["worker job time (dequeued → committed, mean)", fmtMs((jobSeconds / Math.max(1, jobs)) * 1000)],
        ["ingest jobs / batches per job", `${jobs} / ${(accepted / Math.max(1, jobs)).toFixed(1)}`],
        [
          "flushes / mean rows / mean duration",
          `${flushes} / ${(flushRows / Math.max(1, flushes)).toFixed(1)} / ${fmtMs((flushSeconds / Math.max(1, flushes)) * 1000)}`,
        ],
        ["ingest queue: most jobs waiting / oldest wait", `${maxWaiting} / ${maxOldestS.toFixed(1)} s`],
        ["commit poll (node_latest) p50 / every", `${fmtMs(median(commits.pollMs))} / 50 ms`],
      ]),
    );
    for (const a of httpAgents.values()) a.destroy();
    await watcherClient.end();
  } finally {
    for (const app of apps.reverse()) await app.stop();
    await redis.stop();
    await db.drop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
