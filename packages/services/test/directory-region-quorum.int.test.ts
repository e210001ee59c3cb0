// The region quorum on real PostgreSQL with probes of two server regions written as they would be:
// the rollup ranking and the raw reference agree on the overall status under the quorum, the listing
// status changes only on a quorum, the consensus head takes an endpoint's vote only when a quorum of
// its reporting regions reaches it, and a region that stopped reporting drops out.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ensureVantagePoint, insertProbeResults, type ProbeResultInput } from "@rpcpulse/db/directory";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { decideNetworkHeads } from "@rpcpulse/services/ingest";
import { rankDirectory, rankDirectoryFromRaw } from "@rpcpulse/services/directory";

const HIVE_MS = 3_000;
const ROUND = 30_000;
const ANCHOR = Date.UTC(2026, 0, 1);
const head = (t: number) => 101_200_000 + Math.floor((t - ANCHOR) / HIVE_MS);

/** Which regions reach each endpoint, and until when a region reports (stopped regions). */
const PLAN = {
  both: { eu: true, us: true },
  split: { eu: true, us: false },
  down: { eu: false, us: false },
  silentUs: { eu: true, us: false, usStopsMsAgo: 10 * 60_000 },
} as const;
type Name = keyof typeof PLAN;

interface Row {
  endpoint_id: string;
  status: string;
  components: { regionQuorum?: { status: string; split: boolean; quorum: number; silent: string[] } };
}

describe("directory: region quorum over two server regions", () => {
  let db: TestDatabase;
  const now = Math.floor(Date.now() / 300_000) * 300_000 + 150_000;
  const ids = new Map<Name, string>();

  before(async () => {
    db = await createTestDatabase();
    const network = (await db.pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = 'hive'")).rows[0]!.id;
    for (const name of Object.keys(PLAN) as Name[]) {
      const { rows } = await db.pool.query<{ id: string }>(
        `INSERT INTO public_endpoints (network_id, api_family, url, name, status) VALUES ($1, 'hive', $2, $2, 'active') RETURNING id`,
        [network, `http://10.0.0.9/${name}`],
      );
      ids.set(name, rows[0]!.id);
    }
    const vps = {
      eu: (await ensureVantagePoint(db.pool, { name: "server:eu", region: "eu", kind: "server" })).id,
      us: (await ensureVantagePoint(db.pool, { name: "server:us", region: "us", kind: "server" })).id,
    };
    const rows: ProbeResultInput[] = [];
    for (const [name, plan] of Object.entries(PLAN) as Array<[Name, (typeof PLAN)[Name]]>) {
      for (const region of ["eu", "us"] as const) {
        const until = region === "us" && "usStopsMsAgo" in plan ? now - plan.usStopsMsAgo : now;
        for (let t = now - 2 * 3_600_000 + (region === "us" ? 7_000 : 0); t <= until; t += ROUND) {
          const ok = plan[region];
          const h = head(t + 20);
          rows.push({
            time: new Date(t),
            endpointId: ids.get(name)!,
            vantagePointId: vps[region],
            ok,
            httpStatus: ok ? 200 : null,
            errorClass: ok ? null : "connect",
            headBlock: ok ? h : null,
            headTime: ok ? new Date(ANCHOR + (h - 101_200_000) * HIVE_MS) : null,
            ttfbMs: ok ? 20 : null,
            totalMs: ok ? 22 : null,
          });
        }
      }
    }
    await insertProbeResults(db.pool, rows);
  });
  after(async () => db?.drop());

  const overall = async (window = "1h"): Promise<Map<Name, Row>> => {
    const { rows } = await db.pool.query<Row>(
      `SELECT endpoint_id, status, components FROM endpoint_rankings WHERE region = 'all' AND "window" = $1`,
      [window],
    );
    return new Map((Object.keys(PLAN) as Name[]).map((n) => [n, rows.find((r) => r.endpoint_id === ids.get(n))!]));
  };
  const listing = async (): Promise<Record<string, string>> => {
    const { rows } = await db.pool.query<{ id: string; status: string }>(
      `SELECT id, status::text FROM public_endpoints`,
    );
    return Object.fromEntries(
      (Object.keys(PLAN) as Name[]).map((n) => [n, rows.find((r) => r.id === ids.get(n))!.status]),
    );
  };

  test("the consensus head counts an endpoint only when a quorum of its reporting regions reaches it", async () => {
    const report = await decideNetworkHeads({ sql: db.pool }, { now: new Date(now + 1_000), roundMs: ROUND });
    assert.equal(report.decided, 1);
    const { rows } = await db.pool.query<{ evidence: Array<{ source: string }>; considered: number }>(
      `SELECT evidence, considered FROM network_heads`,
    );
    const sources = rows[0]!.evidence.map((e) => e.source).sort();
    assert.deepEqual(sources, [`endpoint:${ids.get("both")}`, `endpoint:${ids.get("silentUs")}`].sort());
    assert.equal(rows[0]!.considered, 2, "split and down do not vote; silentUs votes with eu alone");
  });

  test("overall status under the quorum, the same from rollups and from raw probes; listing status on a quorum", async () => {
    await rankDirectoryFromRaw({ pool: db.pool }, { now: new Date(now), roundMs: ROUND });
    const raw = await overall();
    await db.pool.query(`UPDATE public_endpoints SET status = 'active'`);
    await db.pool.query("DELETE FROM endpoint_rankings");
    await rankDirectory({ pool: db.pool }, { now: new Date(now), roundMs: ROUND });
    const rolled = await overall();
    for (const name of Object.keys(PLAN) as Name[]) {
      assert.equal(rolled.get(name)?.status, raw.get(name)?.status, `${name}: rollup vs raw`);
    }
    assert.equal(rolled.get("both")?.status, "healthy");
    assert.equal(rolled.get("both")?.components.regionQuorum?.quorum, 2);
    assert.equal(rolled.get("split")?.status, "degraded");
    assert.equal(rolled.get("split")?.components.regionQuorum?.split, true);
    assert.equal(rolled.get("down")?.status, "dead");
    assert.equal(rolled.get("silentUs")?.status, "healthy", "us stopped 10 min ago: eu decides");
    assert.deepEqual(rolled.get("silentUs")?.components.regionQuorum?.silent, ["us"]);
    assert.deepEqual(await listing(), { both: "active", split: "active", down: "dead", silentUs: "active" });
  });

  test("DIRECTORY_REGION_QUORUM_SHARE 0: any one region decides", async () => {
    await db.pool.query(`UPDATE public_endpoints SET status = 'active'`);
    await rankDirectory({ pool: db.pool }, { now: new Date(now), roundMs: ROUND, regionQuorumShare: 0 });
    const rolled = await overall();
    assert.equal(rolled.get("split")?.status, "dead", "one region seeing it dead is enough");
    assert.equal(rolled.get("split")?.components.regionQuorum?.quorum, 1);
    assert.equal((await listing()).split, "dead");
  });
});
