/**
 * Ingest endpoint vs a bare node:http server that only gunzips + parses the same payload
 * (goal: ≥ 0.2×). Not part of the test suite.
 *
 *   npx tsx bench/ingest-http.ts [--samples 50] [--concurrency 16] [--seconds 6] [--rounds 2]
 *
 * Both servers run as their own processes; this process replays pre-built gzip bodies with
 * keep-alive at fixed concurrency for --seconds each, interleaved A/B per round. The ingest API
 * does everything for real (token check, rate limit, inflate with caps, wire validation,
 * normalisation, BullMQ enqueue with dedupe) on a private redis-server; every request is a new
 * (node, batchSeq), so no request takes the cheap duplicate path. No worker runs: jobs stay queued.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { Agent } from "node:http";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTestDatabase } from "@rpcpulse/db/testing";
import { gzipBatch, makeAgentBatch } from "../apps/ingest/test/support/agent-batches.js";
import { freePort } from "@rpcpulse/db/testing";
import { median, postBatch, ROOT, seedNodes, startApp, startPrivateRedis, table } from "./ingest-support.js";

async function main() {
  const { values } = parseArgs({
    options: {
      samples: { type: "string", default: "50" },
      concurrency: { type: "string", default: "16" },
      seconds: { type: "string", default: "6" },
      rounds: { type: "string", default: "2" },
    },
  });
  const perBatch = Number(values.samples);
  const concurrency = Number(values.concurrency);
  const seconds = Number(values.seconds);
  const redis = await startPrivateRedis();
  const db = await createTestDatabase();
  const stops: (() => Promise<void>)[] = [];
  try {
    const nodes = await seedNodes(db, 200);
    const seqs = 60;
    const start = Date.now() - (seqs + 1) * perBatch * 10_000;
    const bodies = Array.from({ length: seqs }, (_, s) =>
      gzipBatch(
        makeAgentBatch(s + 1, { samples: perBatch, remoteIps: 5, start: new Date(start + s * perBatch * 10_000) }),
      ),
    );
    const work = bodies.flatMap((body) => nodes.map((n) => ({ token: n.token, body })));

    const ingestPort = await freePort();
    const ingest = await startApp(
      "ingest",
      {
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: "bench",
        LOG_LEVEL: "info",
        INGEST_HOST: "127.0.0.1",
        INGEST_PORT: String(ingestPort),
        INGEST_RATE_PER_SECOND: "100000",
        INGEST_RATE_BURST: "100000",
      },
      "ingest listening",
    );
    stops.push(ingest.stop);
    const barePort = await freePort();
    const bare = spawn(
      process.execPath,
      ["--import", "tsx", join(ROOT, "bench/ingest-bare-server.ts"), String(barePort)],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    await new Promise<void>((resolve) =>
      bare.stdout?.on("data", (c: Buffer) => c.toString().includes("listening") && resolve()),
    );
    bare.stdout?.resume();
    stops.push(async () => {
      bare.kill("SIGTERM");
      await once(bare, "exit");
    });

    let cursor = 0;
    const run = async (port: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
      const statuses = new Map<number, number>();
      const latencies: number[] = [];
      const until = performance.now() + seconds * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < until) {
            const item = work[cursor++ % work.length]!;
            const t = performance.now();
            const status = await postBatch(agent, port, item.token, item.body);
            latencies.push(performance.now() - t);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      agent.destroy();
      const ok = (statuses.get(202) ?? 0) + (statuses.get(200) ?? 0);
      return {
        rps: ok / elapsed,
        statuses: Object.fromEntries(statuses),
        p99: latencies.sort((a, b) => a - b)[Math.floor(latencies.length * 0.99)] ?? 0,
      };
    };

    await run(barePort); // warm-up
    cursor = 0;
    const out: (string | number)[][] = [
      ["round", "bare req/s", "ingest req/s", "ingest samples/s", "ingest p99 ms", "ratio", "ingest answers"],
    ];
    const ratios: number[] = [];
    for (let round = 1; round <= Number(values.rounds); round++) {
      const a = round % 2 ? await run(barePort) : undefined;
      const b = await run(ingestPort);
      const a2 = a ?? (await run(barePort));
      ratios.push(b.rps / a2.rps);
      out.push([
        String(round),
        Math.round(a2.rps),
        Math.round(b.rps),
        Math.round(b.rps * perBatch),
        b.p99,
        b.rps / a2.rps,
        JSON.stringify(b.statuses),
      ]);
    }
    if (cursor > work.length)
      console.log(`note: ${cursor - work.length} requests repeated a (node, batchSeq) and were answered as duplicates`);
    console.log(
      `payload: ${perBatch} samples per batch (gzip ${bodies[0]!.length} bytes), concurrency ${concurrency}, ${seconds} s per run`,
    );
    console.log(table(out));
    const m = median(ratios);
    console.log(`median ratio ingest / bare node:http = ${m.toFixed(2)} (goal ≥ 0.20): ${m >= 0.2 ? "met" : "MISSED"}`);
  } finally {
    for (const stop of stops.reverse()) await stop();
    await redis.stop();
    await db.drop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
