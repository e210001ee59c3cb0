import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { insertNodeSamples } from "@rpcpulse/db/fleet";
import { insertProbeResults } from "@rpcpulse/db/directory";
import {
  queryEndpointUptimeDays,
  queryNodeUptimeDays,
  readCachedUptimeDays,
  writeCachedUptimeDays,
  type UptimeDayRow,
} from "@rpcpulse/db/status";
import { refreshRollups } from "@rpcpulse/db/platform";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  createTestDatabase,
  createTimescaleTestDatabase,
  type TestDatabase,
  type TimescaleTestDatabase,
} from "../src/testing.js";
import { ENDPOINT, insertFixtureFleet, NETWORK_ID, NODE_1, NODE_2, VP_1, VP_2 } from "./fixtures.js";

// Fixture network: 3 s blocks → lag threshold max(3, ceil(30/3)) = 10 blocks.
const DAY1 = new Date("2026-03-01T00:00:00Z");
const DAY2 = new Date("2026-03-02T00:00:00Z");
const at = (day: Date, minute: number, second = 0) => new Date(day.getTime() + minute * 60_000 + second * 1000);

async function seed(sql: SqlClient): Promise<void> {
  await insertFixtureFleet(sql);
  await sql.query(
    `INSERT INTO public_endpoints (id, network_id, api_family, url, name, status) VALUES ($1, $2, 'hive', 'https://fixture.example', 'fx', 'active')`,
    [ENDPOINT, NETWORK_ID],
  );
  for (const [id, name] of [
    [VP_1, "vp-1"],
    [VP_2, "vp-2"],
  ] as const) {
    await sql.query(`INSERT INTO vantage_points (id, name, region, kind) VALUES ($1, $2, 'eu', 'server')`, [id, name]);
  }
  // Node 1, day 1: minutes 0-9 at the head, 10-12 lagging (12 blocks), 13 syncing; day 2: minute 0.
  const samples = [];
  for (let m = 0; m < 10; m++) samples.push({ time: at(DAY1, m), nodeId: NODE_1, lagBlocks: 1, syncing: false });
  for (let m = 10; m < 13; m++) samples.push({ time: at(DAY1, m), nodeId: NODE_1, lagBlocks: 12, syncing: false });
  samples.push({ time: at(DAY1, 13), nodeId: NODE_1, lagBlocks: 0, syncing: true });
  samples.push({ time: at(DAY2, 0), nodeId: NODE_1, lagBlocks: 0 });
  // Two samples in one minute count once.
  samples.push({ time: at(DAY2, 0, 30), nodeId: NODE_1, lagBlocks: 0 });
  await insertNodeSamples(sql, samples);
  // Endpoint, day 1: minute 0 both ok; minute 1 one of two ok (quorum holds: 1*2 >= 2);
  // minute 2 one of three ok (degraded); minute 3 none ok.
  const probe = (minute: number, vp: string, ok: boolean, second = 0) => ({
    time: at(DAY1, minute, second),
    endpointId: ENDPOINT,
    vantagePointId: vp,
    ok,
    totalMs: ok ? 100 : null,
  });
  await insertProbeResults(sql, [
    probe(0, VP_1, true),
    probe(0, VP_2, true),
    probe(1, VP_1, true),
    probe(1, VP_2, false),
    probe(2, VP_1, true),
    probe(2, VP_2, false),
    probe(2, VP_2, false, 30),
    probe(3, VP_1, false),
    probe(3, VP_2, false),
  ]);
  await refreshRollups(sql, { from: DAY1, to: new Date(DAY2.getTime() + 86_400_000) });
}

function byDay(rows: UptimeDayRow[]) {
  return rows
    .map((r) => ({ ...r, day: r.day.toISOString().slice(0, 10) }))
    .sort((a, b) => a.refId.localeCompare(b.refId) || a.day.localeCompare(b.day));
}

async function readAll(sql: SqlClient) {
  const range = { from: DAY1, to: new Date(DAY2.getTime() + 86_400_000) };
  return {
    nodes: byDay(await queryNodeUptimeDays(sql, { refIds: [NODE_1, NODE_2], ...range })),
    endpoints: byDay(await queryEndpointUptimeDays(sql, { refIds: [ENDPOINT], ...range })),
  };
}

describe("status-page uptime days from the 1-minute rollups", () => {
  let db: TestDatabase;
  let ts: TimescaleTestDatabase;
  let plain: Awaited<ReturnType<typeof readAll>>;
  before(async () => {
    db = await createTestDatabase();
    await seed(db.pool);
    plain = await readAll(db.pool);
  });
  after(async () => {
    await db.drop();
    await ts?.close();
  });

  test("node minutes: reported, up under the lag threshold, degraded when lagging or syncing", () => {
    assert.deepEqual(plain.nodes, [
      { refId: NODE_1, day: "2026-03-01", measuredMinutes: 14, upMinutes: 10, degradedMinutes: 4 },
      { refId: NODE_1, day: "2026-03-02", measuredMinutes: 1, upMinutes: 1, degradedMinutes: 0 },
    ]);
    assert.ok(!plain.nodes.some((r) => r.refId === NODE_2), "a node without samples has no rows");
  });

  test("endpoint minutes: up with a quorum of ok probes across vantage points, degraded below it", () => {
    assert.deepEqual(plain.endpoints, [
      { refId: ENDPOINT, day: "2026-03-01", measuredMinutes: 4, upMinutes: 2, degradedMinutes: 1 },
    ]);
  });

  test("cache: write then read back finished days; rewriting a day replaces it", async () => {
    const rows = await queryNodeUptimeDays(db.pool, { refIds: [NODE_1], from: DAY1, to: DAY2 });
    await writeCachedUptimeDays(db.pool, "node", rows);
    await writeCachedUptimeDays(
      db.pool,
      "node",
      rows.map((r) => ({ ...r, upMinutes: r.upMinutes + 1 })),
    );
    const cached = byDay(await readCachedUptimeDays(db.pool, { refIds: [NODE_1], from: DAY1, to: DAY2 }));
    assert.deepEqual(cached, [
      { refId: NODE_1, day: "2026-03-01", measuredMinutes: 14, upMinutes: 11, degradedMinutes: 4 },
    ]);
  });

  test("TimescaleDB mode (continuous aggregates) gives the same days", async () => {
    ts = await createTimescaleTestDatabase();
    await seed(ts.sql);
    assert.deepEqual(await readAll(ts.sql), plain);
  });
});
