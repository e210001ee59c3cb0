import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isAppError } from "@rpcpulse/config";
import {
  insertProbeResults,
  listDirectoryEndpoints,
  SEED_PUBLIC_ENDPOINTS,
  seedPublicEndpoints,
  type ProbeResultInput,
} from "@rpcpulse/db/directory";
import { createTestDatabase, createTestNode, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import { createSafeHttpClient } from "@rpcpulse/prober";
import { startSimnet, type Simnet } from "@rpcpulse/simnet";
import {
  ChainsResponse,
  checkDirectoryCapabilities,
  EndpointDetailResponse,
  EndpointHistoryResponse,
  getEndpointDetail,
  getEndpointHistory,
  listDirectoryChains,
  listRankedEndpoints,
  probeDirectoryRound,
  rankDirectory,
  RankedListResponse,
  seedDemoDirectory,
  submitEndpoint,
} from "@rpcpulse/services/directory";

const fixed = (ms: number) => ({ kind: "fixed" as const, ms });
const ROUNDS = 22;

/**
 * The directory end to end on real PostgreSQL and simnet nodes with known qualities: probe rounds
 * stored through insertProbeResults, capability checks, the ranking job, and the read services.
 */
describe("directory: probing, ranking and read services", () => {
  let db: TestDatabase;
  let sim: Simnet;
  const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 2_000 });
  const vantage = { name: "server:test", region: "test-1" };
  const ids = new Map<string, string>();
  const read = () => ({ sql: db.pool, now: () => new Date(Date.now() + 10_000) });

  before(async () => {
    db = await createTestDatabase();
    sim = await startSimnet({
      seed: "directory-tests",
      headPollMs: 50,
      nodes: [
        { name: "fast", family: "hive", network: "hive", port: 0, latency: fixed(5) },
        { name: "medium", family: "hive", network: "hive", port: 0, latency: fixed(150) },
        { name: "slow", family: "hive", network: "hive", port: 0, latency: fixed(300) },
        { name: "lagging", family: "hive", network: "hive", port: 0, latency: fixed(5), lagBlocks: 12 },
        {
          name: "flaky",
          family: "hive",
          network: "hive",
          port: 0,
          latency: fixed(5),
          errorRate: 0.35,
          errorKind: "http-502",
        },
        {
          name: "down",
          family: "hive",
          network: "hive",
          port: 0,
          latency: fixed(5),
          errorRate: 1,
          errorKind: "connection-reset",
        },
      ],
    });
    const seeded = await seedDemoDirectory(
      { sql: db.pool },
      { nodes: sim.nodes.map((n) => ({ name: n.name, family: n.family, network: n.network, port: n.port })) },
    );
    for (const s of seeded) ids.set(s.name, s.id);
  });
  after(async () => {
    await sim?.close();
    await db?.drop();
  });

  test("probe rounds store one result per endpoint per round", async () => {
    const caps = await checkDirectoryCapabilities({ sql: db.pool }, { client, maxAgeMs: 60_000, concurrency: 6 });
    assert.equal(caps.checked, 6);
    for (let i = 0; i < ROUNDS; i++) {
      const report = await probeDirectoryRound({ sql: db.pool }, { client, vantage, concurrency: 6 });
      assert.equal(report.probed, 6);
      assert.equal(report.inserted, 6);
    }
    const { rows } = await db.pool.query<{ endpoint_id: string; n: number; ok: number }>(
      "SELECT endpoint_id, count(*)::int AS n, count(*) FILTER (WHERE ok)::int AS ok FROM probe_results GROUP BY endpoint_id",
    );
    assert.equal(rows.length, 6);
    for (const r of rows) assert.equal(r.n, ROUNDS);
    const down = rows.find((r) => r.endpoint_id === ids.get("down"));
    assert.equal(down?.ok, 0);
    const fast = rows.find((r) => r.endpoint_id === ids.get("fast"));
    assert.equal(fast?.ok, ROUNDS);
  });

  test("ranking matches the configured ground truth; the dead endpoint is demoted and marked, not dropped", async () => {
    const report = await rankDirectory({ pool: db.pool }, { roundMs: 1_000, now: new Date(Date.now() + 1_000) });
    assert.equal(report.networks, 1);
    const list = RankedListResponse.parse(await listRankedEndpoints(read(), { network: "hive", window: "1h" }));
    const order = list.endpoints.map((e) => e.name.replace(" (simnet)", ""));
    const pos = (name: string) => order.indexOf(name);
    assert.equal(order.length, 6, `all six listed: ${order}`);
    assert.equal(order[0], "fast", `order ${order}`);
    assert.ok(pos("medium") < pos("slow"), `order ${order}`);
    assert.ok(pos("medium") < pos("lagging") && pos("medium") < pos("flaky"), `order ${order}`);
    assert.equal(order.at(-1), "down", `order ${order}`);
    const down = list.endpoints.at(-1);
    assert.equal(down?.health, "dead");
    assert.equal(down?.status, "dead");
    assert.ok((down?.fail ?? 0) >= 5);
    const fast = list.endpoints[0];
    assert.equal(fast?.status, "active", "probation -> active after a clean streak");
    assert.ok(fast && fast.lagBlocks !== null && fast.lagBlocks <= 1, `fast lag ${fast?.lagBlocks}`);
    const lagging = list.endpoints.find((e) => e.name.startsWith("lagging"));
    assert.ok(lagging && lagging.lagBlocks !== null && lagging.lagBlocks >= 10, `lagging lag ${lagging?.lagBlocks}`);
    assert.equal(fast?.capabilities.archive, true);
    assert.ok(fast?.features.includes("condenser_api"));
    assert.equal(fast?.uptime.h24, 1);
    assert.equal(fast?.endpoint, fast?.url);

    const regional = await listRankedEndpoints(read(), { network: "hive", window: "24h", region: "test-1" });
    assert.equal(regional.endpoints.length, 6);
    const filtered = await listRankedEndpoints(read(), { network: "hive", window: "24h", minScore: 101 - 1 });
    assert.ok(filtered.endpoints.every((e) => e.score >= 100));
    const ws = await listRankedEndpoints(read(), { network: "hive", capabilities: ["websocket"] });
    assert.equal(ws.endpoints.length, 0, "simnet Hive nodes have no WebSocket");
  });

  test("endpoint detail, history and chains validate against their response schemas", async () => {
    const id = ids.get("fast") ?? "";
    const detail = EndpointDetailResponse.parse(await getEndpointDetail(read(), { endpointId: id }));
    assert.equal(detail.windows.length, 6, "3 windows x (all + one region)");
    assert.equal(detail.capabilities?.archive, true);
    const history = EndpointHistoryResponse.parse(await getEndpointHistory(read(), { endpointId: id, range: "1h" }));
    assert.equal(
      history.points.reduce((n, p) => n + p.probes, 0),
      ROUNDS,
    );
    const chains = ChainsResponse.parse(await listDirectoryChains({ sql: db.pool }));
    const hive = chains.chains.find((c) => c.network === "hive");
    assert.equal(hive?.endpoints.total, 6);
    assert.equal(hive?.endpoints.dead, 1);
    await assert.rejects(
      getEndpointDetail(read(), { endpointId: "00000000-0000-4000-8000-000000000000" }),
      (e) => isAppError(e) && e.code === "NOT_FOUND",
    );
    await assert.rejects(
      listRankedEndpoints(read(), { network: "nope" }),
      (e) => isAppError(e) && e.code === "NOT_FOUND",
    );
  });

  test("operator verified follows a verified claim only, never a node's public URL", async () => {
    const fastUrl = sim.node("fast").url;
    const fastId = ids.get("fast") ?? "";
    await createTestOrg(db, { id: "org-dir", name: "Dir", slug: "dir" });
    // A reporting agent whose node names the endpoint's exact URL: free text, no proof.
    await createTestNode(db, {
      organizationId: "org-dir",
      name: "n1",
      localRpcUrl: "http://127.0.0.1:1",
      publicUrl: fastUrl.replace(/\/$/, ""),
      lastSeenAt: new Date(),
    });
    assert.equal((await getEndpointDetail({ sql: db.pool }, { endpointId: fastId })).operatorVerified, false);
    // A verified claim (as verifyEndpointClaim records it) is what counts, in the detail and the list.
    await db.pool.query(
      `INSERT INTO endpoint_claims (endpoint_id, organization_id, token, created_by, verified_method, verified_at)
       VALUES ($1, 'org-dir', 'dir-token', 'u', 'dns', now())`,
      [fastId],
    );
    await db.pool.query(`UPDATE public_endpoints SET claimed_by_organization_id = 'org-dir' WHERE id = $1`, [fastId]);
    const detail = await getEndpointDetail({ sql: db.pool }, { endpointId: fastId });
    assert.equal(detail.operatorVerified, true);
    assert.equal(detail.claimedBy, "Dir");
    const list = await listRankedEndpoints(read(), { network: "hive", window: "7d" });
    assert.ok(list.endpoints.some((e) => e.id === fastId));
    for (const e of list.endpoints) assert.equal(e.operatorVerified, e.id === fastId, e.url);
    const other = await getEndpointDetail({ sql: db.pool }, { endpointId: ids.get("medium") ?? "" });
    assert.equal(other.operatorVerified, false);
  });

  test("submission: URL policy, network/family, duplicates, per-user rate limit; starts on probation", async () => {
    // Offline: *.example.org answers a public address from a scripted resolver (see submit-endpoint.int.test.ts).
    const deps = { sql: db.pool, resolver: async () => [{ address: "93.184.215.14", family: 4 as const }] };
    const code = (c: string) => (e: unknown) => isAppError(e) && e.code === c;
    await assert.rejects(
      submitEndpoint(deps, { userId: "u1", endpoint: { url: "http://127.0.0.1:8091", network: "hive" } }),
      code("VALIDATION"),
    );
    await assert.rejects(
      submitEndpoint(deps, { userId: "u1", endpoint: { url: "http://169.254.169.254/", network: "hive" } }),
      code("VALIDATION"),
    );
    await assert.rejects(
      submitEndpoint(deps, { userId: "u1", endpoint: { url: "https://api.example.org", network: "nope" } }),
      code("VALIDATION"),
    );
    await assert.rejects(
      submitEndpoint(deps, {
        userId: "u1",
        endpoint: { url: "https://api.example.org", network: "hive", family: "ethereum" },
      }),
      code("VALIDATION"),
    );
    const ok = await submitEndpoint(deps, {
      userId: "u1",
      endpoint: { url: "https://api.example.org/", network: "hive" },
    });
    assert.equal(ok.status, "probation");
    assert.equal(ok.url, "https://api.example.org");
    assert.equal(ok.family, "hive");
    await assert.rejects(
      submitEndpoint(deps, { userId: "u1", endpoint: { url: "https://api.example.org", network: "hive" } }),
      code("CONFLICT"),
    );
    for (let i = 2; i <= 5; i++)
      await submitEndpoint(deps, { userId: "u1", endpoint: { url: `https://api${i}.example.org`, network: "hive" } });
    await assert.rejects(
      submitEndpoint(deps, { userId: "u1", endpoint: { url: "https://api6.example.org", network: "hive" } }),
      code("RATE_LIMITED"),
    );
    await submitEndpoint(deps, { userId: "u2", endpoint: { url: "https://api6.example.org", network: "hive" } });
    const listed = await listDirectoryEndpoints(db.pool, { ids: [ok.id] });
    assert.equal(listed[0]?.status, "probation");
  });
});

/**
 * Hysteresis on stored probe rows (deterministic): two endpoints whose scores cross by less than
 * the margin every cycle keep their order; a clear lead moves the order.
 */
describe("directory: ranking hysteresis across cycles", () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => db?.drop());

  test("a flapping endpoint does not flip rank every cycle", async () => {
    const seeded = await seedDemoDirectory(
      { sql: db.pool },
      {
        nodes: [
          { name: "steady", family: "hive", network: "steem", port: 18701 },
          { name: "flapping", family: "hive", network: "steem", port: 18702 },
        ],
      },
    );
    const a = seeded[0] as { id: string };
    const b = seeded[1] as { id: string };
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO vantage_points (name, region, kind) VALUES ('server:t', 't', 'server') RETURNING id`,
    );
    const vp = rows[0]?.id ?? "";
    const T0 = Date.UTC(2026, 10, 1);
    const cycle = async (i: number, ttfbA: number, ttfbB: number) => {
      const now = T0 + i * 2 * 3_600_000;
      const probes: ProbeResultInput[] = [];
      for (let k = 0; k < 30; k++) {
        const t = now - 30 * 60_000 + k * 60_000;
        const head = 1_000_000 + Math.floor((t - T0) / 3_000);
        for (const [id, ttfb] of [
          [a.id, ttfbA],
          [b.id, ttfbB],
        ] as const) {
          probes.push({
            time: new Date(t),
            endpointId: id,
            vantagePointId: vp,
            ok: true,
            httpStatus: 200,
            ttfbMs: ttfb,
            totalMs: ttfb + 1,
            headBlock: head,
            headTime: new Date(t - 500),
          });
        }
      }
      await insertProbeResults(db.pool, probes);
      await rankDirectory({ pool: db.pool }, { now: new Date(now), networks: ["steem"] });
      const list = await listRankedEndpoints(
        { sql: db.pool, now: () => new Date(now + 60_000 * i) },
        { network: "steem", window: "1h" },
      );
      const byId = new Map(list.endpoints.map((e) => [e.id, e]));
      return { first: list.endpoints[0]?.id, scoreA: byId.get(a.id)?.score ?? 0, scoreB: byId.get(b.id)?.score ?? 0 };
    };
    const start = await cycle(0, 60, 60);
    const firstOrder = start.first;
    let bAhead = 0;
    let bBehind = 0;
    for (let i = 1; i <= 6; i++) {
      const aTtfb = 60;
      const bTtfb = i % 2 ? 40 : 80; // B alternates a little better / a little worse than A
      const r = await cycle(i, aTtfb, bTtfb);
      if (r.scoreB > r.scoreA) bAhead++;
      if (r.scoreB < r.scoreA) bBehind++;
      assert.ok(Math.abs(r.scoreB - r.scoreA) < 3, `gap within the hysteresis margin: ${r.scoreA} vs ${r.scoreB}`);
      assert.equal(r.first, firstOrder, `cycle ${i}: order flipped (${r.scoreA} vs ${r.scoreB})`);
    }
    assert.ok(bAhead >= 3 && bBehind >= 3, "the scores did cross every cycle");
    // A clear lead does move the order.
    const loser = firstOrder === a.id ? a : b;
    const winnerTtfb = 5;
    const r = loser === a ? await cycle(7, winnerTtfb, 900) : await cycle(7, 900, winnerTtfb);
    assert.equal(r.first, loser.id, `a lead beyond the margin passes: ${r.scoreA} vs ${r.scoreB}`);
  });
});

describe("directory: curated seed list", () => {
  test("seeds every curated endpoint once, on probation, and is idempotent", async () => {
    const db = await createTestDatabase();
    try {
      const first = await seedPublicEndpoints(db.pool);
      assert.equal(first.inserted, SEED_PUBLIC_ENDPOINTS.length, "every entry names a known network");
      const again = await seedPublicEndpoints(db.pool);
      assert.equal(again.inserted, 0);
      const listed = await listDirectoryEndpoints(db.pool);
      assert.equal(listed.length, SEED_PUBLIC_ENDPOINTS.length);
      assert.ok(listed.every((e) => e.status === "probation" && e.submittedBy === "catalog"));
      for (const network of ["hive", "steem", "ethereum-mainnet", "polkadot"])
        assert.ok(
          listed.some((e) => e.network === network),
          network,
        );
    } finally {
      await db.drop();
    }
  });
});
