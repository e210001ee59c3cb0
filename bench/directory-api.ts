/**
 * Ranked-list API under load: GET /api/v1/chains/{network}/endpoints against the production build
 * (`next start` on its own port), open loop at a fixed arrival rate (default 500 requests/s), latency
 * measured from each request's scheduled start (no coordinated omission). Goal (issue 4): p95 < 20 ms.
 * The reference run is GET /api/v1/openapi.json (static, no database) in the same server process.
 * Not part of the test suite.
 *
 *   npm run build -w @rpcpulse/web   # once
 *   npx tsx bench/directory-api.ts [--rate 500] [--seconds 20] [--endpoints 60] [--app apps/web] [--port 3492]
 *
 * A scratch database (template clone, dropped at the end) gets --endpoints endpoints per network
 * (hive, ethereum-mainnet, polkadot) with 1 h of 30 s probes, ranked by the real ranking job.
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { parseArgs } from "node:util";
import { insertProbeResults, type ProbeResultInput } from "@rpcpulse/db/directory";
import { createTestDatabase, freePort } from "@rpcpulse/db/testing";
import { rankDirectory, RankedListResponse, seedDemoDirectory } from "@rpcpulse/services/directory";
import { waitForWebHealth } from "./lib/web-health.js";

const { values: args } = parseArgs({
  options: {
    rate: { type: "string", default: "500" },
    seconds: { type: "string", default: "20" },
    endpoints: { type: "string", default: "60" },
    app: { type: "string", default: "apps/web" },
    port: { type: "string" },
    "max-in-flight": { type: "string", default: "512" },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const PER_NETWORK = Number(args.endpoints);
const MAX_IN_FLIGHT = Number(args["max-in-flight"]);

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function get(url: string, keepBody = true): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => keepBody && chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: keepBody ? Buffer.concat(chunks).toString("utf8") : "" }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

interface RunResult {
  sent: number;
  errors: number;
  dropped: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  achievedRate: number;
}

/** Open loop: request i is due at start + i/rate; latency counts from that due time. */
async function run(urls: readonly string[], rate: number, seconds: number): Promise<RunResult> {
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let errors = 0;
  let dropped = 0;
  let inFlight = 0;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    if (inFlight >= MAX_IN_FLIGHT) {
      dropped++;
      continue;
    }
    inFlight++;
    const url = urls[i % urls.length] as string;
    pending.push(
      get(url, false)
        .then((res) => {
          if (res.status !== 200) errors++;
          latencies.push(performance.now() - due);
        })
        .catch(() => {
          errors++;
        })
        .finally(() => {
          inFlight--;
        }),
    );
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    sent: total - dropped,
    errors,
    dropped,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
    achievedRate: (total - dropped) / elapsed,
  };
}

async function seed(db: Awaited<ReturnType<typeof createTestDatabase>>): Promise<void> {
  const networks = [
    { network: "hive", family: "hive", blockMs: 3_000 },
    { network: "ethereum-mainnet", family: "ethereum", blockMs: 12_000 },
    { network: "polkadot", family: "substrate", blockMs: 6_000 },
  ] as const;
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO vantage_points (name, region, kind) VALUES ('server:bench', 'bench', 'server') RETURNING id`,
  );
  const vp = rows[0]?.id ?? "";
  const now = Date.now();
  let port = 20_000;
  for (const n of networks) {
    const seeded = await seedDemoDirectory(
      { sql: db.pool },
      {
        nodes: Array.from({ length: PER_NETWORK }, (_, i) => ({
          name: `${n.network}-${i}`,
          family: n.family,
          network: n.network,
          port: port++,
        })),
      },
    );
    const probes: ProbeResultInput[] = [];
    seeded.forEach((e, i) => {
      for (let k = 0; k < 120; k++) {
        const t = now - (120 - k) * 30_000;
        const ok = (k * 7 + i) % 50 !== 0 && i % 17 !== 5;
        probes.push({
          time: new Date(t),
          endpointId: e.id,
          vantagePointId: vp,
          ok,
          httpStatus: ok ? 200 : 502,
          errorClass: ok ? null : "http",
          ttfbMs: 10 + i * 3 + (k % 5),
          totalMs: 12 + i * 3 + (k % 5),
          headBlock: 20_000_000 + Math.floor(t / n.blockMs) - (i % 9 === 3 ? 20 : 0),
          headTime: new Date(t - 1_000),
        });
      }
    });
    for (let i = 0; i < probes.length; i += 5_000) await insertProbeResults(db.pool, probes.slice(i, i + 5_000));
  }
  const t0 = performance.now();
  const report = await rankDirectory({ pool: db.pool }, { now: new Date(now) });
  console.log(
    `seeded ${PER_NETWORK * networks.length} endpoints x 120 probes; ranking job: ${report.snapshots} snapshots in ${(performance.now() - t0).toFixed(0)} ms`,
  );
}

async function main(): Promise<void> {
  const db = await createTestDatabase();
  const port = args.port ? Number(args.port) : await freePort();
  const base = `http://127.0.0.1:${port}`;
  let web: ChildProcess | undefined;
  try {
    await seed(db);
    web = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", args.app, "-p", String(port)], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: db.url,
        REDIS_URL: "redis://127.0.0.1:6379",
        APP_BASE_URL: base,
        BETTER_AUTH_SECRET: "bench-directory-secret-0123456789abcdef012345",
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitForWebHealth(base, web);

    const list = await get(`${base}/api/v1/chains/hive/endpoints?window=24h`);
    const parsed = RankedListResponse.parse(JSON.parse(list.body));
    if (parsed.endpoints.length !== PER_NETWORK)
      throw new Error(`expected ${PER_NETWORK} endpoints, got ${parsed.endpoints.length}`);
    console.log(
      `ranked list: ${parsed.endpoints.length} endpoints, ${(list.body.length / 1024).toFixed(1)} KiB, schema ok`,
    );

    // Query keys the way apps vary them: networks x windows x a capability filter x min score.
    const urls: string[] = [];
    for (const network of ["hive", "ethereum-mainnet", "polkadot"])
      for (const window of ["1h", "24h", "7d"])
        for (const q of ["", "&minScore=50", "&capability=batch", "&region=bench"])
          urls.push(`${base}/api/v1/chains/${network}/endpoints?window=${window}${q}`);
    const reference = [`${base}/api/v1/openapi.json`];

    await run(urls, 100, 3); // warm-up: JIT, connection pool, memo
    await run(reference, 100, 2);
    // Interleaved segments (reference, ranked, reference, ...): this machine is shared, so a burst of
    // other work hits both sides; the median segment is reported next to every segment.
    const SEGMENTS = 3;
    const refs: RunResult[] = [];
    const apis: RunResult[] = [];
    for (let i = 0; i < SEGMENTS; i++) {
      refs.push(await run(reference, RATE, SECONDS / SEGMENTS));
      apis.push(await run(urls, RATE, SECONDS / SEGMENTS));
    }
    const row = (name: string, r: RunResult) =>
      `${name.padEnd(34)} ${r.achievedRate.toFixed(0).padStart(5)}/s  p50 ${r.p50.toFixed(2)} ms  p95 ${r.p95.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  max ${r.max.toFixed(1)} ms  errors ${r.errors}  dropped ${r.dropped}`;
    const median = (list: RunResult[]) =>
      [...list].sort((a, b) => a.p95 - b.p95)[Math.floor(list.length / 2)] as RunResult;
    console.log(
      `\nopen loop ${RATE} requests/s, ${SEGMENTS} interleaved segments of ${SECONDS / SEGMENTS} s, ${urls.length} distinct query keys`,
    );
    refs.forEach((r, i) => {
      console.log(row(`reference #${i + 1} GET /api/v1/openapi.json`, r));
      console.log(row(`ranked    #${i + 1} GET .../endpoints`, apis[i] as RunResult));
    });
    const ref = median(refs);
    const api = median(apis);
    console.log(row("median reference", ref));
    console.log(row("median ranked list", api));
    console.log(
      `ratio p95 ranked/reference: ${(api.p95 / ref.p95).toFixed(2)}   goal p95 < 20 ms: ${api.p95 < 20 ? "met" : "NOT met"}`,
    );
    const errors = apis.reduce((n, r) => n + r.errors, 0);
    if (errors > 0) process.exitCode = 1;
  } finally {
    web?.kill("SIGTERM");
    if (web && web.exitCode === null) await new Promise((r) => web?.once("exit", r));
    agent.destroy();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
