/**
 * Public status page with 100 components and 90 days of history: server time of GET /status/<slug>
 * served from the page response cache (p50/p95 over --runs sequential requests) against a reference
 * route of the same server process (/directory/methodology: content only, no data), the worker's
 * uptime-day precompute (refreshStatusUptimeDays, run here directly), the first request after it
 * (a render), and Largest Contentful Paint in headless Chromium. Goals (issue 6): p95 < 50 ms
 * cached, LCP < 2.5 s. Not part of the test suite.
 *
 *   (a production build of apps/web must exist: scripts/e2e.sh makes one)
 *   npx tsx bench/status-page.ts [--nodes 50] [--endpoints 50] [--days 90] [--runs 200] [--lcp-runs 5] [--port 4791]
 *     [--no-page-cache]   render every request (STATUS_PAGE_CACHE_FRESH_MS=0): the cost the cache saves
 *     [--no-precompute]   leave the uptime days to the first view (as before the worker precomputed them)
 *
 * A scratch database (template clone, dropped at the end) gets one organization with --nodes nodes
 * and --endpoints directory endpoints on one page (4 groups), 90 days of 1-minute rollups written
 * in SQL (nodes: every minute, a few lagging/silent stretches; endpoints: two vantage points), the
 * last 24 h of 1-hour rollups, fresh raw samples and probes for the current state, and incidents.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import { insertNodeSamples } from "@rpcpulse/db/fleet";
import { insertProbeResults } from "@rpcpulse/db/directory";
import { createTestDatabase, createTestOrg, freePort } from "@rpcpulse/db/testing";
import { refreshStatusUptimeDays } from "@rpcpulse/services/status";
import { measureLcp } from "./lib/measure-lcp.js";
import { waitForWebHealth } from "./lib/web-health.js";

const { values: args } = parseArgs({
  options: {
    nodes: { type: "string", default: "50" },
    endpoints: { type: "string", default: "50" },
    days: { type: "string", default: "90" },
    runs: { type: "string", default: "200" },
    "lcp-runs": { type: "string", default: "5" },
    port: { type: "string" },
    keep: { type: "boolean", default: false },
    "no-page-cache": { type: "boolean", default: false },
    "no-precompute": { type: "boolean", default: false },
    /** `next dev` instead of the production build (screenshots only; figures need the build). */
    dev: { type: "boolean", default: false },
    /** Directory for a screenshot of the page (viewport) after the LCP runs. */
    shots: { type: "string" },
  },
});
const NODES = Number(args.nodes);
const ENDPOINTS = Number(args.endpoints);
const DAYS = Number(args.days);
const RUNS = Number(args.runs);
const LCP_RUNS = Number(args["lcp-runs"]);
const SLUG = "bench-status";
const VPS = ["00000000-0000-4000-8000-00000000be01", "00000000-0000-4000-8000-00000000be02"];
type Db = Awaited<ReturnType<typeof createTestDatabase>>;

function percentile(sorted: number[], q: number): number {
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx] ?? NaN;
}
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function seed(db: Db): Promise<void> {
  const t0 = performance.now();
  const sql = db.pool;
  const now = Date.now();
  await createTestOrg(sql, { id: "org-bench-status", name: "Bench org", slug: "bench-org" });
  const net = (await sql.query(`SELECT id FROM networks WHERE slug = 'hive'`)).rows[0] as { id: string };
  const created = new Date(now - (DAYS + 1) * 86_400_000);
  const nodeIds = (
    await sql.query(
      `INSERT INTO nodes (organization_id, network_id, api_family, client_name, name, local_rpc_url, created_at, last_seen_at)
       SELECT 'org-bench-status', $1, 'hive', 'hived', 'bench-node-' || g, 'http://10.0.0.' || g || ':8091', $2, now()
       FROM generate_series(1, $3) g RETURNING id`,
      [net.id, created, NODES],
    )
  ).rows.map((r) => (r as { id: string }).id);
  const endpointIds = (
    await sql.query(
      `INSERT INTO public_endpoints (network_id, api_family, url, name, status, created_at)
       SELECT $1, 'hive', 'https://rpc' || g || '.bench.example', 'Bench RPC ' || g, 'active', $2
       FROM generate_series(1, $3) g RETURNING id`,
      [net.id, created, ENDPOINTS],
    )
  ).rows.map((r) => (r as { id: string }).id);
  for (const [i, id] of VPS.entries()) {
    await sql.query(`INSERT INTO vantage_points (id, name, region, kind) VALUES ($1, $2, $3, 'server')`, [
      id,
      `bench-vp-${i}`,
      `r${i}`,
    ]);
  }
  const from = new Date(Math.floor((now - DAYS * 86_400_000) / 60_000) * 60_000);
  // 1-minute rollups: a node is silent 20 min a week and lags for an hour every ~11 days.
  await sql.query(
    `INSERT INTO node_samples_1m (bucket, node_id, samples, lag_samples, lag_blocks_max, syncing_samples, rpc_samples, total_ms_sum)
     SELECT b, n.id, 6, 6, CASE WHEN (extract(epoch FROM b)::bigint / 3600 + n.ord) % 263 = 0 THEN 25 ELSE 1 END, 0, 6, 6 * (8 + n.ord % 9)
     FROM generate_series($2::timestamptz, $3::timestamptz, interval '1 minute') b
     CROSS JOIN (SELECT id, row_number() OVER () AS ord FROM unnest($1::uuid[]) id) n
     WHERE (extract(epoch FROM b)::bigint / 60 + n.ord * 97) % 10080 >= 20`,
    [nodeIds, from, new Date(now - 120_000)],
  );
  await sql.query(
    `INSERT INTO probe_results_1m (bucket, endpoint_id, vantage_point_id, probes, ok_count, latency_samples, total_ms_sum)
     SELECT b, e.id, vp, 1, CASE WHEN (extract(epoch FROM b)::bigint / 60 + e.ord * 131) % 5000 < 8 THEN 0 ELSE 1 END, 1, 80 + e.ord % 50
     FROM generate_series($3::timestamptz, $4::timestamptz, interval '1 minute') b
     CROSS JOIN (SELECT id, row_number() OVER () AS ord FROM unnest($1::uuid[]) id) e
     CROSS JOIN unnest($2::uuid[]) vp`,
    [endpointIds, VPS, from, new Date(now - 120_000)],
  );
  const hourFrom = new Date(Math.floor((now - 25 * 3_600_000) / 3_600_000) * 3_600_000);
  await sql.query(
    `INSERT INTO node_samples_1h (bucket, node_id, samples, rpc_samples, total_ms_sum, lag_samples, lag_blocks_max)
     SELECT b, id, 360, 360, 360 * (8 + extract(hour FROM b)::int % 5), 360, extract(hour FROM b)::int % 4
     FROM generate_series($2::timestamptz, now(), interval '1 hour') b CROSS JOIN unnest($1::uuid[]) id`,
    [nodeIds, hourFrom],
  );
  await sql.query(
    `INSERT INTO probe_results_1h (bucket, endpoint_id, vantage_point_id, probes, ok_count, latency_samples, total_ms_sum)
     SELECT b, id, vp, 60, 60, 60, 60 * (90 + extract(hour FROM b)::int % 30)
     FROM generate_series($3::timestamptz, now(), interval '1 hour') b CROSS JOIN unnest($1::uuid[]) id CROSS JOIN unnest($2::uuid[]) vp`,
    [endpointIds, VPS, hourFrom],
  );
  // The page: 4 groups, every node and endpoint, and a few incidents.
  const page = (
    await sql.query(
      `INSERT INTO status_pages (organization_id, slug, title, description, is_public) VALUES ('org-bench-status', $1, 'Bench network status', '100 components, 90 days', true) RETURNING id`,
      [SLUG],
    )
  ).rows[0] as { id: string };
  const groups = (
    await sql.query(
      `INSERT INTO status_groups (page_id, name, position) SELECT $1, 'Group ' || g, g FROM generate_series(1, 4) g RETURNING id`,
      [page.id],
    )
  ).rows.map((r) => (r as { id: string }).id);
  await sql.query(
    `INSERT INTO status_components (page_id, group_id, kind, node_id, display_name, position)
     SELECT $1, ($2::uuid[])[1 + (ord % 2)], 'node', id, 'Node ' || ord, ord FROM unnest($3::uuid[]) WITH ORDINALITY AS t(id, ord)`,
    [page.id, groups, nodeIds],
  );
  await sql.query(
    `INSERT INTO status_components (page_id, group_id, kind, endpoint_id, display_name, position)
     SELECT $1, ($2::uuid[])[3 + (ord % 2)], 'endpoint', id, 'Endpoint ' || ord, ord FROM unnest($3::uuid[]) WITH ORDINALITY AS t(id, ord)`,
    [page.id, groups, endpointIds],
  );
  for (let d = 1; d < DAYS; d += 9) {
    const started = new Date(now - d * 86_400_000);
    const inc = (
      await sql.query(
        `INSERT INTO incidents (organization_id, page_id, title, status, impact, started_at, resolved_at)
         VALUES ('org-bench-status', $1, $2, 'resolved', 'minor', $3, $4) RETURNING id`,
        [page.id, `Lag on node ${d}`, started, new Date(started.getTime() + 3_600_000)],
      )
    ).rows[0] as { id: string };
    await sql.query(
      `INSERT INTO incident_updates (incident_id, status, body, body_html, created_at) VALUES
       ($1, 'investigating', 'Node is **25 blocks** behind', '<p>Node is <strong>25 blocks</strong> behind</p>', $2),
       ($1, 'resolved', 'Back at the head', '<p>Back at the head</p>', $3)`,
      [inc.id, started, new Date(started.getTime() + 3_600_000)],
    );
  }
  const rows = (
    await sql.query(`SELECT (SELECT count(*) FROM node_samples_1m) + (SELECT count(*) FROM probe_results_1m) AS n`)
  ).rows[0] as { n: string };
  console.log(
    `seeded ${NODES + ENDPOINTS} components, ${Number(rows.n).toLocaleString("en")} 1-minute rollup rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

/** Fresh samples and probes for the current state; written last so the agents look alive at the first request. */
async function seedCurrentState(db: Db): Promise<void> {
  const sql = db.pool;
  const now = Date.now();
  const nodeIds = (
    await sql.query(`SELECT id FROM nodes WHERE organization_id = 'org-bench-status' ORDER BY name`)
  ).rows.map((r) => (r as { id: string }).id);
  const endpointIds = (
    await sql.query(`SELECT id FROM public_endpoints WHERE url LIKE '%.bench.example' ORDER BY url`)
  ).rows.map((r) => (r as { id: string }).id);
  // A fresh sample per node (one lagging), a fresh probe per endpoint and vantage point: a fresh sample per node (one lagging), a fresh probe per endpoint and vantage point.
  await insertNodeSamples(
    sql,
    nodeIds.map((nodeId, i) => ({
      time: new Date(now - 3_000),
      nodeId,
      lagBlocks: i === 3 ? 15 : 1,
      headTime: new Date(now - 4_000),
    })),
  );
  await insertProbeResults(
    sql,
    endpointIds.flatMap((endpointId, i) =>
      VPS.map((vantagePointId, v) => ({
        time: new Date(now - 30_000),
        endpointId,
        vantagePointId,
        ok: !(i === 5 && v === 0),
        totalMs: 90 + i,
      })),
    ),
  );
}

const cacheOutcomes = new Map<string, number>();

async function timeOnce(url: string): Promise<{ ms: number; bytes: number }> {
  const t = performance.now();
  const res = await fetch(url, { headers: { "accept-encoding": "gzip" } });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status}`);
  const outcome = res.headers.get("x-status-page-cache");
  if (outcome) cacheOutcomes.set(outcome, (cacheOutcomes.get(outcome) ?? 0) + 1);
  return { ms: performance.now() - t, bytes: body.byteLength };
}

/** Interleaved so both routes see the same machine noise. */
async function timeServer(urls: { name: string; url: string }[], runs: number) {
  for (const u of urls) for (let i = 0; i < 5; i++) await timeOnce(u.url);
  const samples = new Map<string, number[]>(urls.map((u) => [u.name, []]));
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    for (const u of urls) {
      const r = await timeOnce(u.url);
      samples.get(u.name)!.push(r.ms);
      if (u === urls[urls.length - 1]) bytes = r.bytes;
    }
  }
  return {
    bytes,
    stats: urls.map((u) => {
      const s = samples.get(u.name)!.sort((a, b) => a - b);
      return { name: u.name, p50: percentile(s, 0.5), p95: percentile(s, 0.95) };
    }),
  };
}

async function main(): Promise<void> {
  const db = await createTestDatabase();
  const port = args.port ? Number(args.port) : await freePort();
  const base = `http://127.0.0.1:${port}`;
  let web: ChildProcess | undefined;
  try {
    await seed(db);
    let precompute = "skipped (--no-precompute): the first view computes the uptime days";
    if (!args["no-precompute"]) {
      const t = performance.now();
      const r = await refreshStatusUptimeDays({ sql: db.pool }, { now: new Date() });
      precompute = `${((performance.now() - t) / 1000).toFixed(1)} s for ${r.refsFilled} components, ${r.daysWritten.toLocaleString("en")} days (the worker does this in the background)`;
    }
    await seedCurrentState(db);
    const mode = args.dev ? ["dev", "--webpack"] : ["start"];
    web = spawn(process.execPath, ["node_modules/next/dist/bin/next", ...mode, "apps/web", "-p", String(port)], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: db.url,
        REDIS_URL: "redis://127.0.0.1:6379",
        APP_BASE_URL: base,
        BETTER_AUTH_SECRET: "bench-status-secret-0123456789abcdef0123456789",
        NODE_ENV: args.dev ? "development" : "production",
        LOG_LEVEL: "warn",
        ...(args["no-page-cache"] ? { STATUS_PAGE_CACHE_FRESH_MS: "0" } : {}),
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitForWebHealth(base, web, 240_000);
    if (args.dev && args.keep) {
      console.log(`dev server: ${base}/status/${SLUG} (database ${db.url}); Ctrl-C to stop`);
      await new Promise(() => {});
    }
    const pageUrl = `${base}/status/${SLUG}`;
    const first = await timeOnce(pageUrl);
    cacheOutcomes.clear();
    const { stats, bytes } = await timeServer(
      [
        { name: "reference: /directory/methodology", url: `${base}/directory/methodology` },
        {
          name: `status page, ${NODES + ENDPOINTS} components (${args["no-page-cache"] ? "rendered" : "cached"})`,
          url: pageUrl,
        },
      ],
      RUNS,
    );
    const lcp = await measureLcp({
      url: pageUrl,
      runs: LCP_RUNS,
      check: async (page) => {
        const rows = await page.locator("[data-component]").count();
        if (rows !== NODES + ENDPOINTS) throw new Error(`expected ${NODES + ENDPOINTS} components, saw ${rows}`);
      },
      ...(args.shots ? { screenshotPath: `${args.shots}/status-page-100.png` } : {}),
    });
    console.log(
      `\nStatus page, ${NODES + ENDPOINTS} components × ${DAYS} days, ${RUNS} interleaved requests each (after 5 warm-ups)`,
    );
    console.log(`uptime-day precompute: ${precompute}`);
    console.log(`first request (page rendered, snapshot built): ${fmt(first.ms)}`);
    for (const s of stats)
      console.log(`${s.name.padEnd(50)} p50 ${fmt(s.p50).padStart(9)}  p95 ${fmt(s.p95).padStart(9)}`);
    const ref = stats[0]!;
    const page = stats[1]!;
    console.log(`HTML ${(bytes / 1024).toFixed(0)} KiB; ratio page/reference p95: ${(page.p95 / ref.p95).toFixed(2)}x`);
    console.log(`page cache answers: ${[...cacheOutcomes].map(([k, n]) => `${k} ${n}`).join(", ") || "none (off)"}`);
    console.log(
      `LCP (headless Chromium, ${lcp.length} runs after 1 warm-up): p50 ${fmt(percentile(lcp, 0.5))}, max ${fmt(lcp[lcp.length - 1]!)}`,
    );
    const ok = page.p95 < 50 && percentile(lcp, 0.5) < 2_500;
    console.log(ok ? "goals met: p95 < 50 ms (cached), LCP < 2.5 s" : "GOAL MISSED");
    process.exitCode = ok ? 0 : 1;
    if (args.keep) {
      console.log(`kept running at ${pageUrl} (Ctrl-C to stop)`);
      await new Promise(() => {});
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
