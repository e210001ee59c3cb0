// The ranking from rollups (probe_rank_5m / probe_rank_1h + raw tail) against the ranking from every raw
// probe, on real PostgreSQL: the same order per window and view, counts within the window alignment,
// p50 within one histogram bucket, and buckets that add up to the raw probes after a resumed pass.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ensureVantagePoint, insertProbeResults, type ProbeResultInput } from "@rpcpulse/db/directory";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { rankDirectory, rankDirectoryFromRaw } from "@rpcpulse/services/directory";

const HIVE_MS = 3_000;
const ANCHOR = Date.UTC(2026, 0, 1);
const head = (t: number) => 101_200_000 + Math.floor((t - ANCHOR) / HIVE_MS);
const EVERY = 60_000;
const HOURS = 26;
const HOUR_OF_UNTIL = "date_bin(interval '1 hour', w.until, timestamptz '2000-01-03 00:00:00+00')";

interface Snap {
  window: string;
  region: string;
  endpoint_id: string;
  rank: number;
  score: number;
  samples: number;
  ok_samples: number;
  p50_ms: number | null;
  lag_blocks: number | null;
  status: string;
}

describe("directory: ranking from rollups matches the raw ranking", () => {
  let db: TestDatabase;
  // 2.5 minutes into a 5-minute bucket: the same window alignment on every run.
  const now = Math.floor(Date.now() / 300_000) * 300_000 + 150_000;
  const ids: string[] = [];
  const vps: Record<string, string> = {};

  function probes(from: number, to: number): ProbeResultInput[] {
    const out: ProbeResultInput[] = [];
    ids.forEach((id, e) => {
      for (const [v, vp] of Object.entries(vps)) {
        for (let t = from + e * 900 + v.length * 300; t < to; t += EVERY) {
          const k = Math.floor(t / EVERY);
          const fail = (k * 7 + e) % (e === 3 ? 5 : 97) === 0;
          const ms = 15 + e * 25 + ((k * 13 + e) % 9) + (v === "us" ? 40 : 0);
          const h = head(t + ms) - (e === 5 ? 15 : 0);
          out.push({
            time: new Date(t),
            endpointId: id,
            vantagePointId: vp,
            ok: !fail,
            httpStatus: fail ? 503 : 200,
            errorClass: fail ? "http" : null,
            headBlock: fail ? null : h,
            headTime: fail ? null : new Date(ANCHOR + (h - 101_200_000) * HIVE_MS),
            ttfbMs: fail ? null : ms,
            totalMs: fail ? null : ms + 2,
          });
        }
      }
    });
    return out;
  }

  async function store(rows: readonly ProbeResultInput[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 10_000) await insertProbeResults(db.pool, rows.slice(i, i + 10_000));
  }

  async function snapshot(): Promise<Snap[]> {
    const { rows } = await db.pool.query<Snap>(
      `SELECT "window", region, endpoint_id, rank, score, samples, ok_samples, p50_ms, lag_blocks, status
       FROM endpoint_rankings ORDER BY "window", region, rank`,
    );
    return rows;
  }

  before(async () => {
    db = await createTestDatabase();
    const network = (await db.pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = 'hive'")).rows[0]!.id;
    for (let i = 0; i < 8; i++) {
      ids.push(
        (
          await db.pool.query<{ id: string }>(
            `INSERT INTO public_endpoints (network_id, api_family, url, name, status) VALUES ($1, 'hive', $2, $2, 'active') RETURNING id`,
            [network, `http://10.0.0.9/e${i}`],
          )
        ).rows[0]!.id,
      );
    }
    vps.eu = (await ensureVantagePoint(db.pool, { name: "server:eu", region: "eu", kind: "server" })).id;
    vps.us = (await ensureVantagePoint(db.pool, { name: "server:us", region: "us", kind: "server" })).id;
    await store(probes(now - HOURS * 3_600_000, now));
  });
  after(async () => db?.drop());

  test("same order per window and view; counts within the window alignment; p50 within a bucket", async () => {
    await rankDirectoryFromRaw({ pool: db.pool }, { now: new Date(now), roundMs: EVERY });
    const raw = await snapshot();
    await db.pool.query("DELETE FROM endpoint_rankings");
    await rankDirectory({ pool: db.pool }, { now: new Date(now), roundMs: EVERY });
    const rolled = await snapshot();
    assert.equal(rolled.length, raw.length);
    assert.equal(raw.length, 3 * 3 * ids.length, "3 windows × (all, eu, us) × 8 endpoints");
    const key = (s: Snap) => `${s.window}|${s.region}|${s.endpoint_id}`;
    const rawBy = new Map(raw.map((s) => [key(s), s]));
    for (const r of rolled) {
      const w = rawBy.get(key(r))!;
      assert.equal(r.status, w.status, key(r));
      // 1 h starts at a 5-minute bucket, 24 h / 7 d at a whole hour: at most that many probes apart.
      const perVp = r.region === "all" ? 2 : 1;
      const slack = (r.window === "1h" ? 5 : 60) * perVp;
      assert.ok(Math.abs(r.samples - w.samples) <= slack, `${key(r)} samples ${r.samples} vs ${w.samples}`);
      assert.ok(r.samples <= w.samples, "never more probes than the window holds");
      const p50 = w.p50_ms as number;
      assert.ok(Math.abs((r.p50_ms as number) - p50) / p50 < 0.19, `${key(r)} p50 ${r.p50_ms} vs ${p50}`);
      if (w.lag_blocks !== null) assert.ok(Math.abs((r.lag_blocks as number) - w.lag_blocks) < 0.5, key(r));
    }
    // Order: every pair the raw ranking separates by more than the ranking's hysteresis (3 points, within
    // which the published order does not follow scores anyway) keeps its order; near-ties may swap (window
    // edges are bucket-aligned, quantiles bucketed); Kendall tau >= 0.8.
    for (const window of ["1h", "24h", "7d"]) {
      for (const region of ["all", "eu", "us"]) {
        const r = raw.filter((s) => s.window === window && s.region === region);
        const u = new Map(
          rolled.filter((s) => s.window === window && s.region === region).map((s) => [s.endpoint_id, s.rank]),
        );
        let concordant = 0;
        let discordant = 0;
        for (let i = 0; i < r.length; i++) {
          for (let j = i + 1; j < r.length; j++) {
            const a = r[i]!;
            const b = r[j]!;
            const same = Math.sign(a.rank - b.rank) === Math.sign(u.get(a.endpoint_id)! - u.get(b.endpoint_id)!);
            if (same) concordant++;
            else discordant++;
            if (Math.abs(a.score - b.score) > 3)
              assert.ok(same, `${window}/${region}: ranks of ${a.endpoint_id} and ${b.endpoint_id} swapped`);
          }
        }
        const tau = (concordant - discordant) / (concordant + discordant);
        assert.ok(tau >= 0.8, `${window}/${region} Kendall tau ${tau}`);
      }
    }
    const lagging = rolled.find((s) => s.window === "1h" && s.region === "all" && s.endpoint_id === ids[5]);
    assert.ok((lagging?.lag_blocks ?? 0) >= 14, `lagging endpoint's lag ${lagging?.lag_blocks}`);
  });

  test("a resumed pass adds new and late-stored probes once: rollup buckets sum to the raw probes", async () => {
    const later = now + 17 * 60_000;
    await store(probes(now, later));
    // A batch replayed late (3 hours old, inside buckets already rolled up) marks its endpoints dirty.
    const old = now - 3 * 3_600_000 + 10_000;
    await store(probes(old, old + 10 * 60_000));
    const dirty = await db.pool.query("SELECT count(*)::int AS n FROM probe_rank_dirty");
    assert.equal(dirty.rows[0].n, ids.length);
    await rankDirectory({ pool: db.pool }, { now: new Date(later), roundMs: EVERY });
    const { rows } = await db.pool.query<{ rolled: string; raw: string; until: Date }>(
      `WITH w AS (SELECT max(bucket) + interval '5 minutes' AS until FROM probe_rank_5m)
       SELECT (SELECT coalesce(sum(probes), 0) FROM probe_rank_1h WHERE bucket < ${HOUR_OF_UNTIL})
            + (SELECT coalesce(sum(probes), 0) FROM probe_rank_5m WHERE bucket >= ${HOUR_OF_UNTIL}) AS rolled,
              (SELECT count(*) FROM probe_results WHERE time >= (SELECT min(bucket) FROM probe_rank_1h) AND time < w.until) AS raw,
              w.until
       FROM w`,
    );
    assert.equal(Number(rows[0]!.rolled), Number(rows[0]!.raw), `rolled ${rows[0]!.rolled} vs raw ${rows[0]!.raw}`);
    assert.ok(rows[0]!.until.getTime() <= later - 60_000, "the newest bucket ended before the settle time");
    const errs = await db.pool.query<{ http: string; ok: string }>(
      `SELECT sum(err_http) AS http, sum(ok) AS ok FROM probe_rank_1h WHERE endpoint_id = $1`,
      [ids[3]],
    );
    assert.ok(Number(errs.rows[0]!.http) > 0, "failed probes counted by error class");
    const cleared = await db.pool.query("SELECT count(*)::int AS n FROM probe_rank_dirty");
    assert.equal(cleared.rows[0].n, 0, "the pass cleared the marks it handled");
  });
});
