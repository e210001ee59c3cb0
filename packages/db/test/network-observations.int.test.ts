import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import {
  ensureVantagePoint,
  getEndpointLagSeries,
  insertProbeResults,
  listLatestHeadObservations,
  listRecentProbeErrors,
  type ProbeResultInput,
} from "@rpcpulse/db/directory";
import { type SqlClient } from "@rpcpulse/db/sql";
import { createTestDatabase, createTimescaleTestDatabase, type TimescaleTestDatabase } from "../src/testing.js";

/**
 * The directory's network-head, lag and recent-error reads give the same answers on plain
 * PostgreSQL and on TimescaleDB (hypertable probe_results), from the same probe rows.
 */
const NOW = Date.parse("2026-03-01T12:00:00Z");

async function seed(sql: SqlClient): Promise<Record<string, string>> {
  await sql.query(
    `INSERT INTO chains (slug, name, api_families, finality, finality_note)
     VALUES ('hive', 'Hive', '{hive}', 'irreversible', 'x') ON CONFLICT DO NOTHING`,
  );
  await sql.query(
    `INSERT INTO networks (slug, chain_slug, name, block_interval_ms) SELECT 'hive', 'hive', 'Hive', 3000
     WHERE NOT EXISTS (SELECT 1 FROM networks WHERE slug = 'hive')`,
  );
  const ids: Record<string, string> = {};
  for (const name of ["a", "b", "behind", "bogus"]) {
    const { rows } = await sql.query(
      `INSERT INTO public_endpoints (network_id, api_family, url, name)
       SELECT id, 'hive', $1, $2 FROM networks WHERE slug = 'hive' RETURNING id`,
      [`http://10.9.9.9/${name}`, name],
    );
    ids[name] = (rows[0] as { id: string }).id;
  }
  const vp = await ensureVantagePoint(sql, { name: "server:t", region: "eu-central", kind: "server" });
  const rows: ProbeResultInput[] = [];
  for (let k = 6; k >= 1; k--) {
    const t = NOW - k * 60_000;
    for (const [name, id] of Object.entries(ids)) {
      const failed = name === "b" && k === 3;
      const head = 1_000 - k * 20 + (name === "behind" ? -15 : name === "bogus" ? 999 : 0);
      rows.push({
        time: new Date(t),
        endpointId: id,
        vantagePointId: vp.id,
        ok: !failed,
        httpStatus: failed ? 429 : 200,
        errorClass: failed ? "rate_limited" : null,
        errorMessage: failed ? "slow down" : null,
        rateLimited: failed,
        headBlock: failed ? null : head,
        totalMs: 12,
      });
    }
  }
  await insertProbeResults(sql, rows);
  return ids;
}

async function readAll(sql: SqlClient, ids: Record<string, string>) {
  const latest = await listLatestHeadObservations(sql, { network: "hive", since: new Date(NOW - 300_000) });
  const lag = await getEndpointLagSeries(sql, {
    endpointId: ids.behind!,
    from: new Date(NOW - 3_600_000),
    to: new Date(NOW),
    resolution: "raw",
  });
  const errors = await listRecentProbeErrors(sql, { endpointId: ids.b!, since: new Date(NOW - 3_600_000), limit: 5 });
  const name = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
  return {
    latest: latest
      .map((o) => ({ endpoint: name[o.endpointId], ok: o.ok, head: o.headBlock, at: o.observedAt.toISOString() }))
      .sort((x, y) => String(x.endpoint).localeCompare(String(y.endpoint))),
    lag: lag.map((p) => ({ at: p.time.toISOString(), lag: p.lagBlocks, network: p.networkHead })),
    errors: errors.map((e) => ({
      at: e.time.toISOString(),
      cls: e.errorClass,
      status: e.httpStatus,
      rl: e.rateLimited,
    })),
  };
}

describe("directory reads: network head observations, lag series, recent errors", () => {
  let ts: TimescaleTestDatabase | undefined;
  let plain: Awaited<ReturnType<typeof readAll>>;
  after(async () => ts?.close());

  test("plain PostgreSQL", async () => {
    const db = await createTestDatabase();
    try {
      plain = await readAll(db.pool, await seed(db.pool));
    } finally {
      await db.drop();
    }
    assert.equal(plain.latest.length, 4);
    assert.deepEqual(
      plain.latest.find((o) => o.endpoint === "a"),
      { endpoint: "a", ok: true, head: 980, at: new Date(NOW - 60_000).toISOString() },
    );
    assert.equal(plain.lag.length, 6);
    // The network head of each minute is the second-highest head (a's), never the bogus one.
    assert.ok(
      plain.lag.every((p) => p.lag === 15),
      JSON.stringify(plain.lag),
    );
    assert.deepEqual(plain.errors, [
      { at: new Date(NOW - 180_000).toISOString(), cls: "rate_limited", status: 429, rl: true },
    ]);
  });

  test("TimescaleDB mode gives the same answers", async () => {
    ts = await createTimescaleTestDatabase();
    assert.deepEqual(await readAll(ts.sql, await seed(ts.sql)), plain);
  });
});
