import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ensureVantagePoint, insertProbeResults, type ProbeResultInput } from "@rpcpulse/db/directory";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import {
  getEndpointDiagnostics,
  getNetworkHead,
  listDirectoryChains,
  listRankedEndpoints,
  rankDirectory,
} from "@rpcpulse/services/directory";

/**
 * Network head, lag history, recent errors and the regions list, on real PostgreSQL with probe rows
 * of known heads: three Hive endpoints in step, one 30 blocks behind, one reporting a bogus future head.
 */
describe("directory: network head, lag and errors", () => {
  let db: TestDatabase;
  const ids: Record<string, string> = {};
  const now = Date.now();
  const HEAD = 90_000_000;

  before(async () => {
    db = await createTestDatabase();
    const network = (await db.pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = 'hive'")).rows[0]!.id;
    for (const name of ["a", "b", "c", "behind", "bogus"]) {
      ids[name] = (
        await db.pool.query<{ id: string }>(
          `INSERT INTO public_endpoints (network_id, api_family, url, name, status) VALUES ($1, 'hive', $2, $3, 'active') RETURNING id`,
          [network, `http://10.0.0.1/${name}`, name],
        )
      ).rows[0]!.id;
    }
    const eu = await ensureVantagePoint(db.pool, { name: "server:eu", region: "eu-central", kind: "server" });
    const asia = await ensureVantagePoint(db.pool, { name: "agent:x", region: "ap-south", kind: "agent" });
    const rows: ProbeResultInput[] = [];
    // 20 minutes of probes every 30 s; Hive makes a block every 3 s.
    for (let k = 40; k >= 1; k--) {
      const t = now - k * 30_000;
      const head = HEAD - k * 10;
      for (const [name, id] of Object.entries(ids)) {
        const block = name === "behind" ? head - 30 : name === "bogus" ? head + 5_000 : head;
        const failed = name === "c" && k % 10 === 0;
        rows.push({
          time: new Date(t),
          endpointId: id,
          vantagePointId: k % 2 ? eu.id : asia.id,
          ok: !failed,
          httpStatus: failed ? 503 : 200,
          errorClass: failed ? "http_status" : null,
          errorMessage: failed ? "HTTP 503 from upstream" : null,
          headBlock: failed ? null : block,
          headTime: failed ? null : new Date(t - 1_000),
          totalMs: 20,
          ttfbMs: 18,
        });
      }
    }
    await insertProbeResults(db.pool, rows);
  });
  after(async () => db?.drop());

  test("consensus head ignores the bogus endpoint and counts agreeing ones", async () => {
    const head = await getNetworkHead({ sql: db.pool, now: () => new Date(now) }, { network: "hive" });
    assert.ok(head, "a consensus exists");
    // Latest probes are 30 s old at HEAD - 10: projected to now that is about HEAD.
    assert.ok(Math.abs(head.block - HEAD) <= 2, `head ${head.block} ≈ ${HEAD}`);
    assert.equal(
      head.agreeing,
      3,
      "a, b and c agree; behind is 30 blocks off (the band is 10 blocks, 30 s); bogus is ahead",
    );
    const chains = await listDirectoryChains({ sql: db.pool, now: () => new Date(now) });
    assert.equal(chains.chains.find((c) => c.network === "hive")?.head?.block, head.block);
    assert.equal(chains.chains.find((c) => c.network === "steem")?.head, null);
  });

  test("lag history: the endpoint behind lags 30 blocks, the bogus one does not move the network head", async () => {
    const behind = await getEndpointDiagnostics(
      { sql: db.pool, now: () => new Date(now) },
      { endpointId: ids.behind!, range: "1h" },
    );
    assert.ok(behind.lag.length >= 15, `${behind.lag.length} buckets`);
    assert.ok(
      behind.lag.every((p) => p.lagBlocks === 30),
      JSON.stringify(behind.lag.slice(0, 3)),
    );
    const a = await getEndpointDiagnostics(
      { sql: db.pool, now: () => new Date(now) },
      { endpointId: ids.a!, range: "1h" },
    );
    assert.ok(a.lag.every((p) => p.lagBlocks === 0));
    assert.deepEqual(a.errors, []);
    const c = await getEndpointDiagnostics(
      { sql: db.pool, now: () => new Date(now) },
      { endpointId: ids.c!, range: "1h" },
    );
    assert.equal(c.errors.length, 4);
    assert.deepEqual(
      { ...c.errors[0], time: undefined },
      {
        time: undefined,
        region: "ap-south",
        errorClass: "http_status",
        httpStatus: 503,
        message: "HTTP 503 from upstream",
        rateLimited: false,
      },
    );
    assert.ok(Date.parse(c.errors[0]!.time) > Date.parse(c.errors[1]!.time), "newest first");
  });

  test("the ranked list names its regions and carries the network head", async () => {
    await rankDirectory({ pool: db.pool }, { now: new Date(now) });
    const list = await listRankedEndpoints(
      { sql: db.pool, now: () => new Date(now) },
      { network: "hive", window: "1h" },
    );
    assert.deepEqual(list.regions, ["ap-south", "eu-central"]);
    assert.ok(list.networkHead && Math.abs(list.networkHead.block - HEAD) <= 2);
    assert.equal(list.endpoints.length, 5);
  });
});
