import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { estimateQuantile, LATENCY_BUCKET_BOUNDS_MS, type SqlClient } from "@rpcpulse/db/sql";
import {
  getProbeWindowStats,
  insertProbeResults,
  type ProbeResultInput,
  type ProbeRollupStep,
  type ProbeWindowStats,
} from "@rpcpulse/db/directory";
import { refreshRollups } from "@rpcpulse/db/platform";
import {
  createTestDatabase,
  createTimescaleTestDatabase,
  type TestDatabase,
  type TimescaleTestDatabase,
} from "../src/testing.js";
import { ENDPOINT, insertFixtureFleet, NETWORK_ID, VP_1, VP_2 } from "./fixtures.js";

const T0 = new Date("2026-03-01T00:00:00Z");
const MIN = 60_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
/** Rollups are refreshed up to here; probes after it exist only raw. */
const REFRESHED_UNTIL = at(150 * MIN);
const REGION: Record<string, string> = { [VP_1]: "eu", [VP_2]: "us" };

type Probe = ProbeResultInput & {
  time: Date;
  vantagePointId: string;
  ok: boolean;
  totalMs: number | null;
  rateLimited: boolean;
};

/** Three hours, one probe a minute from each vantage point; latencies spread over several buckets. */
function makeProbes(): Probe[] {
  const out: Probe[] = [];
  for (let m = 0; m < 180; m++) {
    for (const [vp, base] of [
      [VP_1, 20],
      [VP_2, 140],
    ] as const) {
      const ok = m % 13 !== 5;
      out.push({
        time: at(m * MIN + (vp === VP_1 ? 7_000 : 31_000)),
        endpointId: ENDPOINT,
        vantagePointId: vp,
        ok,
        httpStatus: ok ? 200 : 503,
        totalMs: ok ? base + ((m * 37) % 400) : null,
        rateLimited: m % 29 === 3,
      });
    }
  }
  return out;
}
const PROBES = makeProbes();

async function seed(sql: SqlClient): Promise<void> {
  await insertFixtureFleet(sql);
  await sql.query(
    `INSERT INTO public_endpoints (id, network_id, api_family, url, name, status) VALUES ($1, $2, 'hive', 'https://fixture.example', 'fx', 'active')`,
    [ENDPOINT, NETWORK_ID],
  );
  for (const vp of [VP_1, VP_2])
    await sql.query(`INSERT INTO vantage_points (id, name, region, kind) VALUES ($1, $2, $3, 'server')`, [
      vp,
      `vp-${REGION[vp]}`,
      REGION[vp],
    ]);
  await insertProbeResults(sql, PROBES);
  await refreshRollups(sql, { from: T0, to: at(200 * MIN) }, REFRESHED_UNTIL);
}

function bucketOf(v: number): number {
  const i = LATENCY_BUCKET_BOUNDS_MS.findIndex((b) => v <= b);
  return i === -1 ? LATENCY_BUCKET_BOUNDS_MS.length : i;
}

/** What the window holds, computed from the inserted rows directly. */
function expected(from: Date, to: Date): Array<Omit<ProbeWindowStats, "rawProbes">> {
  const out: Array<Omit<ProbeWindowStats, "rawProbes">> = [];
  for (const vp of [VP_1, VP_2]) {
    const rows = PROBES.filter((p) => p.vantagePointId === vp && +p.time >= +from && +p.time < +to);
    const lat = rows.filter((p) => p.ok && p.totalMs != null).map((p) => p.totalMs as number);
    const hist = Array.from({ length: LATENCY_BUCKET_BOUNDS_MS.length + 1 }, () => 0);
    for (const v of lat) hist[bucketOf(v)]! += 1;
    out.push({
      endpointId: ENDPOINT,
      region: REGION[vp] ?? "?",
      probes: rows.length,
      ok: rows.filter((p) => p.ok).length,
      rateLimited: rows.filter((p) => p.rateLimited).length,
      latencySamples: lat.length,
      latencyHistogram: hist,
      totalMsMin: lat.length ? Math.min(...lat) : null,
      totalMsMax: lat.length ? Math.max(...lat) : null,
    });
  }
  return out;
}

const WINDOWS: Array<{ step: ProbeRollupStep; from: Date; to: Date }> = [
  // Unaligned start and a recent tail past the refreshed rollups: both read raw.
  { step: "1m", from: at(10 * MIN + 30_000), to: at(180 * MIN) },
  { step: "1h", from: at(10 * MIN), to: at(180 * MIN) },
  { step: "1h", from: T0, to: at(120 * MIN) },
];

async function readAll(sql: SqlClient) {
  const out: ProbeWindowStats[][] = [];
  for (const w of WINDOWS) out.push(await getProbeWindowStats(sql, { endpointIds: [ENDPOINT], ...w }));
  return out;
}

/** Raw percentile as scoring computes it (linear between closest ranks). */
function rawQuantile(values: number[], q: number): { lo: number; hi: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  return { lo: sorted[Math.floor(pos)] as number, hi: sorted[Math.ceil(pos)] as number };
}

describe("probe window stats from rollups plus the raw tail", () => {
  let db: TestDatabase;
  let ts: TimescaleTestDatabase;
  let plain: ProbeWindowStats[][];
  before(async () => {
    db = await createTestDatabase();
    await seed(db.pool);
    plain = await readAll(db.pool);
  });
  after(async () => {
    await db?.drop();
    await ts?.close();
  });

  test("counts and histogram equal those of the raw rows, per region", () => {
    WINDOWS.forEach((w, i) => {
      const got = (plain[i] ?? []).map(({ rawProbes: _raw, ...rest }) => rest);
      assert.deepEqual(got, expected(w.from, w.to), `window ${i} (${w.step})`);
    });
  });

  test("raw rows are read only outside materialised buckets", () => {
    const raw = (i: number) => (plain[i] ?? []).reduce((s, r) => s + r.rawProbes, 0);
    // 1m: [10:30, 11:00) -> 1 probe (vp-us at :31), plus [150, 180) -> 60 probes.
    assert.equal(raw(0), 61);
    // 1h from 00:10: [10, 60) raw = 100, 1h rollup covers [60, 120), [120, 180) raw = 120.
    assert.equal(raw(1), 220);
    // Fully inside refreshed hours: nothing raw.
    assert.equal(raw(2), 0);
  });

  test("p50/p95 from the histogram fall within the bucket bounds of the raw percentiles", () => {
    for (const vp of [VP_1, VP_2]) {
      const stats = plain[0]?.find((r) => r.region === REGION[vp]);
      assert.ok(stats);
      const values = PROBES.filter(
        (p) => p.vantagePointId === vp && p.ok && +p.time >= +WINDOWS[0]!.from && +p.time < +WINDOWS[0]!.to,
      ).map((p) => p.totalMs as number);
      for (const q of [0.5, 0.95]) {
        const est = estimateQuantile(stats.latencyHistogram, q, stats.totalMsMin, stats.totalMsMax);
        assert.ok(est !== null);
        const { lo, hi } = rawQuantile(values, q);
        const lower = bucketOf(lo) === 0 ? 0 : (LATENCY_BUCKET_BOUNDS_MS[bucketOf(lo) - 1] as number);
        const upper = LATENCY_BUCKET_BOUNDS_MS[bucketOf(hi)] ?? Infinity;
        assert.ok(est >= lower && est <= upper, `${REGION[vp]} q=${q}: ${est} not in [${lower}, ${upper}]`);
      }
    }
  });

  test("an empty endpoint list reads nothing; an inverted window is refused", async () => {
    assert.deepEqual(await getProbeWindowStats(db.pool, { endpointIds: [], from: T0, to: at(MIN), step: "1m" }), []);
    await assert.rejects(getProbeWindowStats(db.pool, { endpointIds: [ENDPOINT], from: at(MIN), to: T0, step: "1m" }));
  });

  test("TimescaleDB mode (continuous aggregates) gives the same figures", async () => {
    ts = await createTimescaleTestDatabase();
    await seed(ts.sql);
    assert.deepEqual(await readAll(ts.sql), plain);
  });
});
