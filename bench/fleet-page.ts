/**
 * Fleet overview with --nodes nodes (1,000 by default; issue 13 asks for 10,000), paged
 * server-side (FLEET_PAGE_SIZE rows per page): server time of GET /app/o/<slug> (curl with the session
 * cookie; time to first byte and total) and Largest Contentful Paint in headless Chromium.
 * Goals (issue 3): server time under 300 ms, LCP under 2.5 s. Not part of the test suite.
 *
 *   npm run build -w @rpcpulse/web   # once: the bench runs the production build (next start)
 *   npx tsx bench/fleet-page.ts [--nodes 1000] [--runs 20] [--lcp-runs 5] [--port 3491]
 *
 * A scratch database (template clone, dropped at the end) gets one organization with --nodes
 * nodes and 1 h of 10 s samples each (90 % healthy, 5 % lagging, 3 % silent for 2 min, 2 % never
 * reported), and the 1-minute rollups the worker would have built. The reference run is the same
 * page for an organization with no nodes, in the same server process (ratio printed).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import { insertNodeRow, insertNodeSamples, type NodeSampleInput } from "@rpcpulse/db/fleet";
import { refreshRollups } from "@rpcpulse/db/platform";
import { createTestDatabase, freePort } from "@rpcpulse/db/testing";
import { FLEET_PAGE_SIZE } from "@rpcpulse/services/fleet";
import { measureLcp } from "./lib/measure-lcp.js";
import { waitForWebHealth } from "./lib/web-health.js";

const { values: args } = parseArgs({
  options: {
    nodes: { type: "string", default: "1000" },
    runs: { type: "string", default: "20" },
    "lcp-runs": { type: "string", default: "5" },
    port: { type: "string" },
  },
});
const NODES = Number(args.nodes);
const RUNS = Number(args.runs);
const LCP_RUNS = Number(args["lcp-runs"]);

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx]!;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

/** Sign up and create an organization through better-auth's HTTP API; returns the cookie header. */
async function signUp(base: string, label: string): Promise<{ cookie: string; slug: string; orgId: string }> {
  const origin = new URL(base).origin;
  const suffix = Math.random().toString(16).slice(2, 10);
  const res = await fetch(`${base}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({
      email: `${label}-${suffix}@bench.rpcpulse.dev`,
      password: `pw-${suffix}-${suffix}`,
      name: label,
    }),
  });
  if (!res.ok) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const slug = `${label}-${suffix}`;
  const org = await fetch(`${base}/api/auth/organization/create`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, cookie },
    body: JSON.stringify({ name: `${label} ${suffix}`, slug }),
  });
  if (!org.ok) throw new Error(`organization: ${org.status} ${await org.text()}`);
  const body = (await org.json()) as { id: string };
  return { cookie, slug, orgId: body.id };
}

/** curl timings: [time to first byte, total] in ms; checks status 200 and the size. */
function curlOnce(url: string, cookie: string): { ttfb: number; total: number; bytes: number } {
  const out = execFileSync(
    "curl",
    [
      "-s",
      "-o",
      "/dev/null",
      "-H",
      `cookie: ${cookie}`,
      "-w",
      "%{http_code} %{time_starttransfer} %{time_total} %{size_download}",
      url,
    ],
    { encoding: "utf8" },
  );
  const [code, ttfb, total, size] = out.trim().split(" ");
  if (code !== "200") throw new Error(`GET ${url}: HTTP ${code}`);
  return { ttfb: Number(ttfb) * 1000, total: Number(total) * 1000, bytes: Number(size) };
}

function timeServer(url: string, cookie: string, runs: number) {
  for (let i = 0; i < 3; i++) curlOnce(url, cookie); // warm-up (JIT, connection pools)
  const ttfb: number[] = [];
  const total: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const t = curlOnce(url, cookie);
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

type Db = Awaited<ReturnType<typeof createTestDatabase>>;

function sampleOf(nodeId: string, i: number, s: number, t: number, lag: number): NodeSampleInput {
  return {
    time: new Date(t),
    nodeId,
    headBlock: 90_000_000 - s,
    headTime: new Date(t - 1_500),
    lagBlocks: lag,
    headAgeMs: 1_500,
    tcpEstablished: 100 + ((i * 7 + s) % 400),
    tcpTimeWait: (i * 13 + s) % 900,
    tcpCloseWait: s % 3,
    connectMs: 0.2,
    ttfbMs: 4 + (s % 20),
    totalMs: 5 + (s % 40) + (i % 7),
    memAvailable: 8e9,
    memTotal: 32e9,
  };
}

/** Like the agents of the reporting nodes: one new sample each every 10 s while the bench runs. */
function startFeed(db: Db, live: { id: string; i: number; lag: number }[]): () => Promise<void> {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const t = Date.now();
      await insertNodeSamples(
        db.sql,
        live.map((n) => sampleOf(n.id, n.i, 0, t, n.lag)),
      );
      for (let waited = 0; waited < 10_000 && !stopped; waited += 250) await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}

async function seed(db: Db, organizationId: string): Promise<{ id: string; i: number; lag: number }[]> {
  const network = await db.prisma.network.findUniqueOrThrow({ where: { slug: "hive" } });
  const now = Date.now();
  const started = performance.now();
  const nodeIds: string[] = [];
  for (let i = 0; i < NODES; i++) {
    const r = await insertNodeRow(db.prisma, {
      organizationId,
      networkId: network.id,
      apiFamily: "hive",
      clientName: "hived",
      clientVersion: "1.27.11",
      name: `node-${String(i).padStart(4, "0")}`,
      localRpcUrl: "http://127.0.0.1:8091",
      publicUrl: null,
      region: ["eu-central", "us-east", "ap-south"][i % 3]!,
    });
    if (!r.ok) throw new Error(`node ${i}: ${r.reason}`);
    nodeIds.push(r.node.id);
  }
  const live: { id: string; i: number; lag: number }[] = [];
  let batch: NodeSampleInput[] = [];
  let rows = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    rows += await insertNodeSamples(db.sql, batch);
    batch = [];
  };
  for (let i = 0; i < nodeIds.length; i++) {
    const kind = i % 100;
    if (kind >= 98) continue; // waiting: never reported
    const silentMs = kind >= 95 ? 120_000 : 0; // down
    const lag = kind >= 90 && kind < 95 ? 40 : i % 2;
    if (silentMs === 0) live.push({ id: nodeIds[i]!, i, lag });
    for (let s = 1; s <= 360; s++) {
      batch.push(sampleOf(nodeIds[i]!, i, s, now - silentMs - s * 10_000, lag));
      if (batch.length >= 10_000) await flush();
    }
  }
  await flush();
  await refreshRollups(db.sql, { from: new Date(now - 2 * 3_600_000), to: new Date(now) }, new Date(now));
  console.log(
    `seeded ${NODES} nodes, ${rows} samples, rollups refreshed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return live;
}

async function main(): Promise<void> {
  const db = await createTestDatabase();
  const port = args.port ? Number(args.port) : await freePort();
  const base = `http://localhost:${port}`;
  let web: ChildProcess | undefined;
  try {
    // The standalone server is what the Dockerfile runs; `next start` warns with output: standalone.
    web = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "apps/web", "-p", String(port)], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: db.url,
        REDIS_URL: "redis://127.0.0.1:6379",
        APP_BASE_URL: base,
        BETTER_AUTH_SECRET: "bench-fleet-secret-0123456789abcdef0123456789",
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitForWebHealth(base, web);
    const big = await signUp(base, "fleet");
    const empty = await signUp(base, "empty");
    const stopFeed = startFeed(db, await seed(db, big.orgId));

    const html = execFileSync("curl", ["-s", "-H", `cookie: ${big.cookie}`, `${base}/app/o/${big.slug}`], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const statuses = Object.fromEntries(
      ["up", "lagging", "down", "waiting"].map((st) => [st, html.split(`class="status ${st}"`).length - 1]),
    );
    console.log(`rows by status on the page: ${JSON.stringify(statuses)}`);
    const reference = timeServer(`${base}/app/o/${empty.slug}`, empty.cookie, RUNS);
    const fleet = timeServer(`${base}/app/o/${big.slug}`, big.cookie, RUNS);
    const sorted = timeServer(`${base}/app/o/${big.slug}?sort=p95&dir=desc&status=up`, big.cookie, RUNS);
    const lcp = await measureLcp({
      url: `${base}/app/o/${big.slug}`,
      runs: LCP_RUNS,
      cookie: big.cookie,
      check: async (page) => {
        const rows = await page.locator("[data-testid=fleet-table] tbody tr").count();
        // The fleet is paged server-side: the first page's rows.
        const expected = Math.min(NODES, FLEET_PAGE_SIZE);
        if (rows !== expected) throw new Error(`expected ${expected} rows, saw ${rows}`);
      },
    });
    await stopFeed();

    console.log(`\nFleet page, ${NODES} nodes, ${RUNS} runs each (curl, after 3 warm-up requests)`);
    console.log("page                               TTFB p50   TTFB p95   total p50  total p95  HTML");
    const line = (name: string, r: ReturnType<typeof timeServer>) =>
      console.log(
        `${name.padEnd(35)}${fmt(r.ttfbP50).padStart(9)}  ${fmt(r.ttfbP95).padStart(9)}  ${fmt(r.totalP50).padStart(9)}  ${fmt(r.totalP95).padStart(9)}  ${(r.bytes / 1024).toFixed(0)} KiB`,
      );
    line("reference: empty organization", reference);
    line(`fleet, ${NODES} nodes`, fleet);
    line(`fleet, sorted by p95, status=up`, sorted);
    console.log(`ratio fleet/reference (total p50): ${(fleet.totalP50 / reference.totalP50).toFixed(2)}x`);
    console.log(
      `LCP (headless Chromium, ${lcp.length} runs after 1 warm-up): p50 ${fmt(percentile(lcp, 0.5))}, max ${fmt(lcp[lcp.length - 1]!)}`,
    );
    const ok = fleet.totalP95 < 300 && percentile(lcp, 0.5) < 2_500;
    console.log(ok ? "goals met: server < 300 ms (p95 total), LCP < 2.5 s" : "GOAL MISSED");
    process.exitCode = ok ? 0 : 1;
  } finally {
    web?.kill("SIGTERM");
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
