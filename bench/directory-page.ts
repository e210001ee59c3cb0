/**
 * Public ranked page with 1,000 endpoints: server time of GET /directory/<network> (curl: time to
 * first byte and total, p50/p95) against a reference network with no endpoints in the same server
 * process, and Largest Contentful Paint in headless Chromium. Goal (issue 4): LCP under 2.5 s.
 * Not part of the test suite.
 *
 *   npm run build -w @rpcpulse/web   # once: the bench runs the production build (next start)
 *   npx tsx bench/directory-page.ts [--endpoints 1000] [--runs 20] [--lcp-runs 5] [--port 3591]
 *
 * A scratch database (template clone, dropped at the end) gets --endpoints endpoints on
 * ethereum-mainnet (85 % active, 10 % probation, 5 % dead), three vantage regions, capability rows,
 * ranking snapshots (24 h window; all regions and per region) and 1 h of probes every minute per
 * region with the 1-minute rollups, all written through @rpcpulse/db functions.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import {
  ALL_REGIONS,
  ensureVantagePoint,
  insertProbeResults,
  insertPublicEndpoints,
  replaceEndpointRankings,
  upsertEndpointCapability,
  type EndpointRankingRow,
  type ProbeResultInput,
} from "@rpcpulse/db/directory";
import { refreshRollups } from "@rpcpulse/db/platform";
import { createTestDatabase, freePort } from "@rpcpulse/db/testing";
import { measureLcp } from "./lib/measure-lcp.js";
import { waitForWebHealth } from "./lib/web-health.js";
import { seededRandom } from "@rpcpulse/config/testing";

const { values: args } = parseArgs({
  options: {
    endpoints: { type: "string", default: "1000" },
    runs: { type: "string", default: "20" },
    "lcp-runs": { type: "string", default: "5" },
    port: { type: "string" },
    /** Keep the database and the server running (for screenshots); stop with Ctrl-C. */
    keep: { type: "boolean", default: false },
  },
});
const ENDPOINTS = Number(args.endpoints);
const RUNS = Number(args.runs);
const LCP_RUNS = Number(args["lcp-runs"]);
const NETWORK = "ethereum-mainnet";
const REFERENCE = "kusama";
const REGIONS = ["eu-central", "us-east", "ap-southeast"];

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Deterministic pseudo-random numbers in [0, 1) so every run seeds the same directory. */
const rng = seededRandom;

async function seed(db: Db): Promise<void> {
  const started = performance.now();
  const rand = rng(42);
  const statusOf = (i: number) => (i % 20 === 19 ? "dead" : i % 10 === 9 ? "probation" : "active");
  const ids = (
    await insertPublicEndpoints(
      db.sql,
      Array.from({ length: ENDPOINTS }, (_, i) => ({
        network: NETWORK,
        family: "ethereum" as const,
        url: `https://rpc-${String(i).padStart(4, "0")}.provider-${i % 37}.example/v1/mainnet`,
        name: `Endpoint ${String(i).padStart(4, "0")}`,
        provider: `Provider ${i % 37}`,
        submittedBy: "bench",
        status: statusOf(i),
      })),
    )
  ).map((id, i) => {
    if (id === null) throw new Error(`endpoint ${i} already existed`);
    return id;
  });
  const vps = await Promise.all(
    REGIONS.map((region) => ensureVantagePoint(db.sql, { name: `bench-${region}`, region, kind: "server" })),
  );
  const now = Date.now();
  for (let i = 0; i < ENDPOINTS; i++) {
    await upsertEndpointCapability(db.sql, {
      endpointId: ids[i]!,
      checkedAt: new Date(now - 600_000),
      archive: i % 3 === 0,
      methods: { eth_getLogs: true, debug_traceTransaction: i % 4 === 0, trace_block: i % 5 === 0 },
      coverage: 0.6 + (i % 5) * 0.1,
      batch: i % 2 === 0,
      logsMaxRange: 10_000,
      websocket: i % 3 !== 2,
      wsUrl: null,
      wsNewHeadMs: null,
      cors: true,
      clientVersion: "Geth/v1.16.5",
      report: {},
    });
  }
  // 1 h of probes, one a minute per region; dead endpoints fail their last 10.
  const base = rand;
  const latency = ids.map(() => 20 + base() * 400);
  for (let m = 60; m >= 1; m--) {
    const rows: ProbeResultInput[] = [];
    const t = now - m * 60_000;
    ids.forEach((endpointId, i) => {
      vps.forEach((vp, r) => {
        const ok = !(statusOf(i) === "dead" && m <= 10) && rand() > 0.01;
        const ttfb = latency[i]! * (1 + r * 0.4) * (0.7 + rand() * 0.8);
        rows.push({
          time: new Date(t + r * 1_000),
          endpointId,
          vantagePointId: vp.id,
          ok,
          httpStatus: ok ? 200 : null,
          errorClass: ok ? null : "timeout",
          errorMessage: ok ? null : "timed out after 10 s",
          ttfbMs: ok ? ttfb : null,
          totalMs: ok ? ttfb + 2 : null,
          headBlock: ok ? 23_000_000 - (i % 4) : null,
          headTime: ok ? new Date(t - 6_000) : null,
          rateLimited: false,
        });
      });
    });
    for (let k = 0; k < rows.length; k += 10_000) await insertProbeResults(db.sql, rows.slice(k, k + 10_000));
  }
  await refreshRollups(db.sql, { from: new Date(now - 2 * 3_600_000), to: new Date(now) });
  // Ranking snapshots as the worker writes them: established first, then probation, then dead.
  const tier = (i: number) => ({ active: 0, probation: 1, dead: 2 })[statusOf(i)];
  for (const region of [ALL_REGIONS, ...REGIONS]) {
    const r = REGIONS.indexOf(region);
    const rows = ids
      .map((endpointId, i): Omit<EndpointRankingRow, "rank"> => {
        const p50 = latency[i]! * (1 + Math.max(0, r) * 0.4);
        const status = statusOf(i);
        const score = status === "dead" ? 0 : Math.max(0, Math.min(100, 100 - p50 / 8 - (i % 4) * 2));
        return {
          endpointId,
          score: Math.round(score * 100) / 100,
          status: status === "active" ? (i % 13 === 0 ? "degraded" : "healthy") : status,
          samples: status === "probation" ? 12 : 2_880,
          okSamples: status === "dead" ? 2_000 : status === "probation" ? 12 : 2_870,
          p50Ms: status === "dead" ? null : p50,
          p95Ms: status === "dead" ? null : p50 * 2.4,
          lagBlocks: i % 4,
          availability: status === "dead" ? 0.69 : 0.9965,
          headRegressions: i % 50 === 7 ? 2 : 0,
          components: {
            availability: status === "dead" ? 0.66 : 0.99,
            latency: 200 / (200 + p50),
            lag: 30 / (30 + (i % 4) * 12),
            errors: 0.99,
            capabilities: 0.5 + (i % 5) * 0.1,
            consecutiveFailures: status === "dead" ? 10 : 0,
            uptime: {
              h24: status === "dead" ? 0.69 : 0.9965,
              d7: status === "dead" ? 0.9 : 0.9981,
              d30: status === "dead" ? 0.95 : 0.999,
            },
          },
        };
      })
      .map((row, i) => ({ row, i }))
      .sort((a, b) => tier(a.i) - tier(b.i) || b.row.score - a.row.score)
      .map(({ row }, k) => ({ ...row, rank: k + 1 }));
    await replaceEndpointRankings(db.sql, { network: NETWORK, window: "24h", region }, rows, new Date(now));
  }
  console.log(
    `seeded ${ENDPOINTS} endpoints, ${60 * ENDPOINTS * REGIONS.length} probes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

function curlOnce(url: string): { ttfb: number; total: number; bytes: number } {
  const out = execFileSync(
    "curl",
    ["-s", "-o", "/dev/null", "-w", "%{http_code} %{time_starttransfer} %{time_total} %{size_download}", url],
    { encoding: "utf8" },
  );
  const [code, ttfb, total, size] = out.trim().split(" ");
  if (code !== "200") throw new Error(`GET ${url}: HTTP ${code}`);
  return { ttfb: Number(ttfb) * 1000, total: Number(total) * 1000, bytes: Number(size) };
}

function timeServer(url: string, runs: number) {
  for (let i = 0; i < 3; i++) curlOnce(url); // warm-up
  const ttfb: number[] = [];
  const total: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const t = curlOnce(url);
    ttfb.push(t.ttfb);
    total.push(t.total);
    bytes = t.bytes;
  }
  ttfb.sort((a, b) => a - b);
  total.sort((a, b) => a - b);
  return {
    ttfbP50: percentile(ttfb, 0.5),
    ttfbP95: percentile(ttfb, 0.95),
    totalP50: percentile(total, 0.5),
    totalP95: percentile(total, 0.95),
    bytes,
  };
}

async function main(): Promise<void> {
  const db = await createTestDatabase();
  let web: ChildProcess | undefined;
  try {
    await seed(db);
    const port = args.port ? Number(args.port) : await freePort();
    const base = `http://localhost:${port}`;
    web = spawn("node_modules/.bin/next", ["start", "apps/web", "-p", String(port)], {
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
        APP_BASE_URL: base,
        BETTER_AUTH_SECRET: "bench-secret-0123456789abcdef0123456789abcdef",
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "inherit", "inherit"],
    });
    await waitForWebHealth(base, web);
    const reference = timeServer(`${base}/directory/${REFERENCE}`, RUNS);
    const ranked = timeServer(`${base}/directory/${NETWORK}`, RUNS);
    const filtered = timeServer(`${base}/directory/${NETWORK}?region=us-east&cap=archive&min=50`, RUNS);
    const lcp = await measureLcp({
      url: `${base}/directory/${NETWORK}`,
      runs: LCP_RUNS,
      check: async (page, run) => {
        const rows = await page.locator("[data-testid=ranked-table] tbody tr").count();
        if (rows !== ENDPOINTS) throw new Error(`expected ${ENDPOINTS} rows, saw ${rows}`);
        if (run.lcp <= 0) throw new Error("no largest-contentful-paint entry");
      },
    });

    console.log(`\nRanked page, ${ENDPOINTS} endpoints, ${RUNS} runs each (curl, after 3 warm-up requests)`);
    console.log("page                                     TTFB p50   TTFB p95  total p50  total p95  HTML");
    const line = (name: string, r: ReturnType<typeof timeServer>) =>
      console.log(
        `${name.padEnd(40)}${fmt(r.ttfbP50).padStart(9)}  ${fmt(r.ttfbP95).padStart(9)}  ${fmt(r.totalP50).padStart(9)}  ${fmt(r.totalP95).padStart(9)}  ${(r.bytes / 1024).toFixed(0)} KiB`,
      );
    line(`reference: ${REFERENCE} (no endpoints)`, reference);
    line(`${NETWORK}, ${ENDPOINTS} endpoints`, ranked);
    line("filtered: us-east, archive, score >= 50", filtered);
    console.log(`ratio ranked/reference (total p50): ${(ranked.totalP50 / reference.totalP50).toFixed(2)}x`);
    console.log(
      `LCP (headless Chromium, ${lcp.length} runs after 1 warm-up): p50 ${fmt(percentile(lcp, 0.5))}, max ${fmt(lcp[lcp.length - 1]!)}`,
    );
    const ok = lcp[lcp.length - 1]! < 2_500;
    console.log(ok ? "goal met: LCP < 2.5 s in every run" : "GOAL MISSED: LCP >= 2.5 s");
    process.exitCode = ok ? 0 : 1;
    if (args.keep) {
      console.log(`kept: ${base} (database ${db.name}); Ctrl-C stops the server and drops the database`);
      await new Promise<void>((resolve) => process.once("SIGINT", () => resolve()));
    }
  } finally {
    web?.kill("SIGTERM");
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
