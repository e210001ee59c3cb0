/**
 * End-to-end ingest: HTTP → BullMQ → worker → PostgreSQL, against `psql \copy` of the same rows
 * (goals: ≥ 0.25× COPY and ≥ 50,000 samples/s), then receipt→commit latency at demo-like load
 * (goal: p95 < 1 s). Not part of the test suite.
 *
 *   npx tsx bench/ingest-e2e.ts [--nodes 100] [--batches 8] [--samples 250] [--ips 2] [--concurrency 16]
 *                               [--ingest-workers 0] [--profile-dir DIR]
 *
 * The ingest API and the worker run as their own processes (apps/ingest and apps/worker, src/main.ts) on a private
 * redis-server and a fresh database; this process is the load generator (pre-built gzip bodies,
 * keep-alive, bounded concurrency). "samples" are node_samples rows (one agent interval each, ~45
 * metrics); each also carries --ips node_remote_ips rows. The COPY reference copies all of them.
 */
import type { ChildProcess } from "node:child_process";
import { Agent } from "node:http";
import { availableParallelism, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createTestDatabase } from "@rpcpulse/db/testing";
import { gzipBatch, makeAgentBatch } from "../apps/ingest/test/support/agent-batches.js";
import { watchCommits } from "./lib/commit-watcher.js";
import {
  freePort,
  median,
  percentile,
  postBatch,
  psqlCopy,
  seedNodes,
  startApp,
  startPrivateRedis,
  table,
  tempDir,
  truncateIngestTables,
  waitHealthy,
  writeReferenceCsv,
} from "./ingest-support.js";

async function main() {
  const { values } = parseArgs({
    options: {
      nodes: { type: "string", default: "100" },
      batches: { type: "string", default: "8" },
      samples: { type: "string", default: "250" },
      ips: { type: "string", default: "2" },
      concurrency: { type: "string", default: "16" },
      /** INGEST_WORKERS for the ingest process (0 = one per CPU, the app's default; 1 = one process). */
      "ingest-workers": { type: "string", default: "0" },
      /** Write V8 CPU profiles of the ingest and worker processes into this directory (node --cpu-prof). */
      "profile-dir": { type: "string" },
    },
  });
  const nodeCount = Number(values.nodes);
  const perNode = Number(values.batches);
  const perBatch = Number(values.samples);
  const loadAtStart = loadavg()[0]!;
  const cpus = availableParallelism();
  const redis = await startPrivateRedis();
  const db = await createTestDatabase();
  const reference = await createTestDatabase();
  const apps: { child: ChildProcess; stop(): Promise<void> }[] = [];
  try {
    const nodes = await seedNodes(db, nodeCount);
    const start = Date.now() - (perNode + 1) * perBatch * 10_000;
    const batches = Array.from({ length: perNode }, (_, b) =>
      makeAgentBatch(b + 1, {
        samples: perBatch,
        remoteIps: Number(values.ips),
        start: new Date(start + b * perBatch * 10_000),
      }),
    );
    const bodies = batches.map((b) => gzipBatch(b));
    const total = nodeCount * perNode * perBatch;
    const csv = writeReferenceCsv(
      tempDir(),
      nodes.flatMap((n) => batches.map((batch) => ({ nodeId: n.nodeId, batch }))),
    );

    // Profiles are named CPU.<date>.<pid>...; the bench prints which pid is which process.
    const profile = values["profile-dir"] ? ["--cpu-prof", "--cpu-prof-dir", values["profile-dir"]] : [];
    const ingestPort = await freePort();
    const workerPort = await freePort();
    const common = { DATABASE_URL: db.url, REDIS_URL: redis.url, QUEUE_PREFIX: "bench", LOG_LEVEL: "warn" };
    apps.push(
      await startApp(
        "ingest",
        {
          ...common,
          LOG_LEVEL: "info",
          INGEST_HOST: "127.0.0.1",
          INGEST_PORT: String(ingestPort),
          INGEST_RATE_PER_SECOND: "100000",
          INGEST_RATE_BURST: "100000",
          INGEST_WORKERS: values["ingest-workers"],
        },
        "ingest listening",
        profile,
      ),
    );
    apps.push(
      await startApp(
        "worker",
        {
          ...common,
          LOG_LEVEL: "info",
          WORKER_HEALTH_HOST: "127.0.0.1",
          WORKER_HEALTH_PORT: String(workerPort),
          WORKER_REGISTER_SCHEDULES: "false",
          WORKER_MAINTENANCE_ENABLED: "false",
          WORKER_INGEST_CONCURRENCY: "48",
        },
        "worker started",
        profile,
      ),
    );
    await waitHealthy(ingestPort);
    if (profile.length > 0)
      console.log(
        `profiles: ingest pid ${apps[0]!.child.pid} (its workers: other pids), worker pid ${apps[1]!.child.pid}`,
      );
    // Children log at info only until ready; keep their pipes drained (resume) from here on.

    const countSamples = async () =>
      Number((await db.pool.query<{ n: string }>("SELECT count(*) AS n FROM node_samples")).rows[0]!.n);
    const reference1 = psqlCopy(reference.url, csv);

    // Throughput phase.
    const agent = new Agent({ keepAlive: true, maxSockets: Number(values.concurrency) });
    const work = batches.flatMap((_, b) => nodes.map((n) => ({ token: n.token, body: bodies[b]! })));
    let next = 0;
    const statuses = new Map<number, number>();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: Number(values.concurrency) }, async () => {
        while (next < work.length) {
          const item = work[next++]!;
          const status = await postBatch(agent, ingestPort, item.token, item.body);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    const httpMs = performance.now() - t0;
    let stored = 0;
    const deadline = Date.now() + 60_000;
    while ((stored = await countSamples()) < total && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const e2eMs = performance.now() - t0;
    if (stored !== total) throw new Error(`stored ${stored} of ${total} samples`);

    await truncateIngestTables(reference);
    const reference2 = psqlCopy(reference.url, csv);
    const refMs = median([reference1, reference2]);
    const copySamplesPerS = csv.samples / (refMs / 1000);
    const e2eSamplesPerS = total / (e2eMs / 1000);

    // Latency phase: 10 nodes, one single-sample batch each per second (10× the demo's 10 nodes at 10 s).
    const demo = nodes.slice(0, 10);
    const latencies: number[] = [];
    const seqBase = 10_000;
    const commits = watchCommits(db.pool, 10, (ms) => latencies.push(ms));
    for (let tick = 0; tick < 10; tick++) {
      const tickStart = performance.now();
      const at = new Date(Date.now() - 1_000);
      await Promise.all(
        demo.map(async (n, i) => {
          const body = gzipBatch(makeAgentBatch(seqBase + tick, { samples: 1, remoteIps: 5, start: at }));
          commits.expect(n.nodeId, at.getTime(), performance.now());
          const status = await postBatch(agent, ingestPort, n.token, body);
          if (status !== 202) throw new Error(`demo push ${i} answered ${status}`);
        }),
      );
      await new Promise((r) => setTimeout(r, Math.max(0, 1_000 - (performance.now() - tickStart))));
    }
    await commits.stop(10_000);
    agent.destroy();

    console.log(
      `dataset: ${total.toLocaleString()} samples (${nodeCount} nodes × ${perNode} batches × ${perBatch}) + ` +
        `${csv.remoteIps.toLocaleString()} remote-IP rows; HTTP concurrency ${values.concurrency}; INGEST_WORKERS=${values["ingest-workers"]}; answers ${JSON.stringify(Object.fromEntries(statuses))}; ` +
        `load average at start ${loadAtStart.toFixed(2)} (1 min, ${cpus} CPUs)`,
    );
    console.log(
      table([
        ["measure", "value", "goal", "verdict"],
        ["psql \\copy (same rows) samples/s", Math.round(copySamplesPerS), "", ""],
        ["HTTP accept (all 202) samples/s", Math.round(total / (httpMs / 1000)), "", ""],
        [
          "end to end samples/s (HTTP→queue→commit)",
          Math.round(e2eSamplesPerS),
          "≥ 50,000",
          e2eSamplesPerS >= 50_000 ? "met" : "MISSED",
        ],
        [
          "end to end / COPY",
          e2eSamplesPerS / copySamplesPerS,
          "≥ 0.25",
          e2eSamplesPerS / copySamplesPerS >= 0.25 ? "met" : "MISSED",
        ],
        ["demo load: batches measured", latencies.length, "100", ""],
        ["receipt→commit p50 ms", median(latencies), "", ""],
        [
          "receipt→commit p95 ms",
          percentile(latencies, 95),
          "< 1,000",
          percentile(latencies, 95) < 1_000 ? "met" : "MISSED",
        ],
        ["receipt→commit max ms", Math.max(...latencies), "", ""],
      ]),
    );
  } finally {
    for (const app of apps.reverse()) await app.stop();
    await redis.stop();
    await db.drop();
    await reference.drop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
