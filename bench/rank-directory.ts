/**
 * Ranking read benchmark (not part of the test suite).
 *
 *   npx tsx bench/rank-directory.ts [--endpoints 300] [--vantage 2] [--days 7] [--interval 30] [--rounds 3]
 *
 * A fresh plain-PostgreSQL database with --endpoints endpoints probed from --vantage vantage points
 * every --interval seconds for --days days (synthetic rows generated server-side), rollups refreshed
 * up to 5 minutes before "now" (the rest is a raw tail). Interleaves, --rounds times:
 *   raw:    listProbeSamples() over 7 days, what the ranking job reads today;
 *   rollup: getProbeWindowStats() for 1 h and 24 h (1-minute rollup) and 7 d (1-hour rollup), each
 *           with its raw tail.
 * Prints medians and the ratio raw / rollup. Read side only: the ranking job itself still reads raw
 * rows (lag, ttfb latency and error classes are not in the rollups yet).
 */
import { parseArgs } from "node:util";
import { getProbeWindowStats, listProbeSamples, refreshRollups } from "../packages/db/src/index.js";
import { createTestDatabase } from "../packages/db/src/testing.js";

const { values } = parseArgs({
  options: {
    endpoints: { type: "string", default: "300" },
    vantage: { type: "string", default: "2" },
    days: { type: "string", default: "7" },
    interval: { type: "string", default: "30" },
    rounds: { type: "string", default: "3" },
  },
});
const ENDPOINTS = Number(values.endpoints);
const VANTAGE = Number(values.vantage);
const DAYS = Number(values.days);
const INTERVAL_S = Number(values.interval);
const ROUNDS = Number(values.rounds);
const HOUR = 3_600_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

async function main(): Promise<void> {
  const db = await createTestDatabase();
  try {
    const sql = db.pool;
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const since = new Date(now.getTime() - DAYS * 24 * HOUR);
    await sql.query(
      `INSERT INTO chains (slug, name, api_families, finality, finality_note)
       VALUES ('hive', 'Hive', '{hive}', 'irreversible', 'bench') ON CONFLICT DO NOTHING`,
    );
    const { rows: net } = await sql.query(
      `INSERT INTO networks (id, slug, chain_slug, name, block_interval_ms, testnet)
       VALUES (gen_random_uuid(), 'bench-net', 'hive', 'Bench', 3000, true) RETURNING id`,
    );
    const { rows: eps } = await sql.query(
      `INSERT INTO public_endpoints (id, network_id, api_family, url, name, status)
       SELECT gen_random_uuid(), $1, 'hive', 'https://e' || i || '.bench.example', 'e' || i, 'active'
       FROM generate_series(1, $2) i RETURNING id`,
      [net[0].id, ENDPOINTS],
    );
    await sql.query(
      `INSERT INTO vantage_points (id, name, region, kind)
       SELECT gen_random_uuid(), 'vp-' || i, 'r' || i, 'server' FROM generate_series(1, $1) i`,
      [VANTAGE],
    );
    const ids = eps.map((r: { id: string }) => r.id);
    const load = await timed(() =>
      sql.query(
        `INSERT INTO probe_results (time, endpoint_id, vantage_point_id, ok, http_status, rate_limited, ttfb_ms, total_ms, head_block)
         SELECT t + (v.n * interval '3 seconds'), e.id, v.id,
           (hashint4(e.n * 7919 + extract(epoch FROM t)::int) % 50) <> 0,
           200, false,
           10 + e.n % 200 + abs(hashint4(extract(epoch FROM t)::int + e.n)) % 40,
           20 + e.n % 200 + abs(hashint4(extract(epoch FROM t)::int + e.n)) % 60,
           extract(epoch FROM t)::bigint / 3
         FROM generate_series($1::timestamptz, $2::timestamptz - interval '1 second', $3::interval) t
           CROSS JOIN (SELECT id, row_number() OVER (ORDER BY id)::int AS n FROM public_endpoints) e
           CROSS JOIN (SELECT id, row_number() OVER (ORDER BY id)::int AS n FROM vantage_points) v`,
        [since, now, `${INTERVAL_S} seconds`],
      ),
    );
    const refresh = await timed(() =>
      refreshRollups(sql, { from: since, to: now }, new Date(now.getTime() - 5 * 60_000)),
    );
    await sql.query("ANALYZE");
    const rows = (await sql.query("SELECT count(*)::bigint AS n FROM probe_results")).rows[0].n;
    console.log(
      `${ENDPOINTS} endpoints × ${VANTAGE} vantage points × ${DAYS} d every ${INTERVAL_S} s: ${rows} raw rows` +
        ` (load ${(load.ms / 1000).toFixed(1)} s, rollup refresh ${(refresh.ms / 1000).toFixed(1)} s)`,
    );

    const raw: number[] = [];
    const rolled: number[] = [];
    let rawRows = 0;
    let rolledRows = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const r = await timed(() =>
        listProbeSamples(sql, { endpointIds: ids, since, until: new Date(now.getTime() + 1) }),
      );
      raw.push(r.ms);
      rawRows = r.value.length;
      const u = await timed(async () => {
        const to = new Date(now.getTime() + 1);
        const h1 = await getProbeWindowStats(sql, {
          endpointIds: ids,
          from: new Date(now.getTime() - HOUR),
          to,
          step: "1m",
        });
        const h24 = await getProbeWindowStats(sql, {
          endpointIds: ids,
          from: new Date(now.getTime() - 24 * HOUR),
          to,
          step: "1m",
        });
        const d7 = await getProbeWindowStats(sql, { endpointIds: ids, from: since, to, step: "1h" });
        return [h1, h24, d7];
      });
      rolled.push(u.ms);
      rolledRows = u.value.reduce((s, w) => s + w.length, 0);
      console.log(`round ${round + 1}: raw ${r.ms.toFixed(0)} ms (${rawRows} rows), rollups ${u.ms.toFixed(0)} ms`);
    }
    const rawMed = median(raw);
    const rolledMed = median(rolled);
    console.log(
      `median raw read ${rawMed.toFixed(0)} ms, rollup read (1 h + 24 h + 7 d) ${rolledMed.toFixed(0)} ms` +
        ` (${rolledRows} result rows): raw / rollup = ${(rawMed / rolledMed).toFixed(1)}×`,
    );
  } finally {
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
