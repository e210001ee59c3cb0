// The vantage rules end to end on real PostgreSQL: stored probes from the server's vantage point and
// from organizations' agents (vantage_points kind agent, node → organization), the ranking job, and
// the read services. Agents never move the overall ranking; a disagreeing agent is discounted and
// flagged in the endpoint detail; an organization never scores the endpoint it claims.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  agentVantagePointName,
  ensureVantagePoint,
  insertProbeResults,
  type ProbeResultInput,
} from "@rpcpulse/db/directory";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import {
  EndpointDetailResponse,
  getEndpointDetail,
  listRankedEndpoints,
  rankDirectory,
} from "@rpcpulse/services/directory";

const HIVE_MS = 3_000;
const ANCHOR = Date.UTC(2026, 0, 1);
const head = (t: number) => 101_200_000 + Math.floor((t - ANCHOR) / HIVE_MS);
const blockTime = (h: number) => ANCHOR + (h - 101_200_000) * HIVE_MS;

describe("directory: vantage rules (agents, outliers, own claims)", () => {
  let db: TestDatabase;
  const now = Date.now();
  const ids: Record<string, string> = {};
  const vantage: Record<string, string> = {};
  const read = () => ({ sql: db.pool, now: () => new Date(now + 1_000) });

  /** `count` probes of `endpoint` from `vp` every `every` ms up to now: latency, failures, lag. */
  function probes(
    endpoint: string,
    vp: string,
    o: { ms: number; fail?: boolean; lag?: number; count?: number; every?: number },
  ): ProbeResultInput[] {
    const out: ProbeResultInput[] = [];
    const count = o.count ?? 40;
    const every = o.every ?? 30_000;
    for (let k = count; k >= 1; k--) {
      const t = now - k * every + (vp.length % 7) * 100;
      const h = head(t + o.ms) - (o.lag ?? 0);
      out.push({
        time: new Date(t),
        endpointId: ids[endpoint]!,
        vantagePointId: vantage[vp]!,
        ok: !o.fail,
        httpStatus: o.fail ? 503 : 200,
        errorClass: o.fail ? "http_status" : null,
        headBlock: o.fail ? null : h,
        headTime: o.fail ? null : new Date(blockTime(h)),
        ttfbMs: o.fail ? null : o.ms,
        totalMs: o.fail ? null : o.ms + 1,
      });
    }
    return out;
  }

  async function rankedOverall() {
    await rankDirectory({ pool: db.pool }, { now: new Date(now + 1_000) });
    const list = await listRankedEndpoints(read(), { network: "hive", window: "1h" });
    return list.endpoints.map((e) => ({ id: e.id, score: e.score, lag: e.lagBlocks, health: e.health }));
  }

  before(async () => {
    db = await createTestDatabase();
    const network = (await db.pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = 'hive'")).rows[0]!.id;
    for (const name of ["a", "b", "c"]) {
      ids[name] = (
        await db.pool.query<{ id: string }>(
          `INSERT INTO public_endpoints (network_id, api_family, url, name, status) VALUES ($1, 'hive', $2, $2, 'active') RETURNING id`,
          [network, `http://10.0.0.9/${name}`],
        )
      ).rows[0]!.id;
    }
    vantage.server = (
      await ensureVantagePoint(db.pool, { name: "server:eu", region: "eu-central", kind: "server" })
    ).id;
    for (const org of ["org-1", "org-2", "org-evil", "org-c"]) {
      await createTestOrg(db, { id: org });
      const node = (await createTestNode(db, { organizationId: org, networkId: network, name: org })).id;
      const name = agentVantagePointName({ organizationId: org, nodeId: node, region: "eu-central" });
      const vp = await ensureVantagePoint(db.pool, { name, region: "eu-central", kind: "agent" });
      await db.pool.query(`UPDATE vantage_points SET node_id = $1 WHERE id = $2`, [node, vp.id]);
      vantage[org] = vp.id;
    }
    // org-c holds a verified claim on endpoint c.
    await db.pool.query(`UPDATE public_endpoints SET claimed_by_organization_id = 'org-c' WHERE id = $1`, [ids.c]);
    await insertProbeResults(db.pool, [
      ...probes("a", "server", { ms: 20 }),
      ...probes("b", "server", { ms: 60 }),
      ...probes("c", "server", { ms: 120, lag: 12 }),
    ]);
  });
  after(async () => db?.drop());

  test("agents' probes never move the overall ranking, however many and whatever they say", async () => {
    const before = await rankedOverall();
    assert.deepEqual(
      before.map((e) => e.id),
      [ids.a, ids.b, ids.c],
    );
    assert.equal(before[2]?.health, "lagging", "c is 12 blocks behind on every server probe");
    await insertProbeResults(db.pool, [
      // Two honest organizations agree with the server.
      ...probes("a", "org-1", { ms: 25 }),
      ...probes("b", "org-1", { ms: 65 }),
      ...probes("c", "org-1", { ms: 125, lag: 12 }),
      ...probes("a", "org-2", { ms: 22 }),
      ...probes("b", "org-2", { ms: 62 }),
      ...probes("c", "org-2", { ms: 118, lag: 12 }),
      // One organization floods: "a" always fails, "b" answers in 1 ms.
      ...probes("a", "org-evil", { ms: 20, fail: true, count: 400, every: 3_000 }),
      ...probes("b", "org-evil", { ms: 1, count: 400, every: 3_000 }),
      // c's own organization says c is instant and at the head.
      ...probes("c", "org-c", { ms: 1, count: 400, every: 3_000 }),
    ]);
    const after = await rankedOverall();
    assert.deepEqual(after, before, "same order, same scores, same lag, same health");
  });

  test("in the region view, a disagreeing agent is discounted and flagged; the claimant's probes of its own endpoint are left out", async () => {
    const regional = await listRankedEndpoints(read(), { network: "hive", window: "1h", region: "eu-central" });
    assert.deepEqual(
      regional.endpoints.map((e) => e.id),
      [ids.a, ids.b, ids.c],
    );
    const a = EndpointDetailResponse.parse(await getEndpointDetail(read(), { endpointId: ids.a! }));
    const aEu = a.windows.find((w) => w.window === "1h" && w.region === "eu-central");
    assert.deepEqual(
      aEu?.vantage?.discounted.map((f) => [f.vantagePointIds, f.reason]),
      [[[vantage["org-evil"]], "availability"]],
    );
    assert.equal(aEu?.availability, 1, "the discounted failures do not count");
    const b = EndpointDetailResponse.parse(await getEndpointDetail(read(), { endpointId: ids.b! }));
    const bEu = b.windows.find((w) => w.window === "1h" && w.region === "eu-central");
    assert.deepEqual(
      bEu?.vantage?.discounted.map((f) => f.reason),
      ["latency"],
    );
    const c = EndpointDetailResponse.parse(await getEndpointDetail(read(), { endpointId: ids.c! }));
    const cEu = c.windows.find((w) => w.window === "1h" && w.region === "eu-central");
    assert.equal(cEu?.vantage?.ownExcluded, 400, "org-c never scores the endpoint it claims");
    assert.equal(cEu?.health, "lagging");
    assert.ok((cEu?.p50Ms ?? 0) >= 100, `c's regional p50 ${cEu?.p50Ms} comes from the others' probes`);
    const cAll = c.windows.find((w) => w.window === "1h" && w.region === "all");
    assert.equal(cAll?.vantage?.agentIgnored, 40 + 40 + 400, "the overall view used no agent probe");
    assert.equal(cAll?.vantage?.servers, 1);
  });

  test("each agent organization's share of a region view is capped", async () => {
    const b = await getEndpointDetail(read(), { endpointId: ids.b! });
    const bEu = b.windows.find((w) => w.window === "1h" && w.region === "eu-central");
    // Server 40 + two honest organizations (the flooding one is discounted): each organization may hold
    // at most 25 % of the view, so T ≤ 0.25 × (40 + 2T): 20 of each one's 40 probes, evenly spaced.
    assert.equal(bEu?.samples, 40 + 20 + 20, JSON.stringify(bEu?.vantage));
    assert.deepEqual(
      bEu?.vantage?.capped.map((c) => [c.kept, c.of]),
      [
        [20, 40],
        [20, 40],
      ],
    );
    assert.equal(bEu?.vantage?.sources, 3);
  });
});
