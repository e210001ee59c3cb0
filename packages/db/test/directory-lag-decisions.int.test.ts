import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import {
  getEndpointLagSeries,
  getProbeAvailability,
  insertProbeResults,
  upsertEndpointFreshnessMinutes,
  type ProbeResultInput,
} from "@rpcpulse/db/directory";
import { insertNetworkHead } from "@rpcpulse/db/ingest";
import { queryEndpointUptimeDays } from "@rpcpulse/db/status";
import { refreshRollups } from "@rpcpulse/db/platform";
import { type SqlClient } from "@rpcpulse/db/sql";
import { createTestDatabase, createTimescaleTestDatabase, type TimescaleTestDatabase } from "../src/testing.js";
import { insertFixtureFleet, NETWORK_ID } from "./fixtures.js";

/**
 * Lag history and lagging minutes against the stored consensus decisions (network_heads), with the
 * same answers on plain PostgreSQL and TimescaleDB: an endpoint at the head reads 0 in every bucket,
 * one 20 blocks behind reads 20 in every bucket; lagging minutes (as the ranking job records them)
 * count as degraded in status-page uptime and as not up in the directory's 30-day uptime.
 */
const T0 = Date.parse("2026-03-02T10:00:00Z");
const H0 = 5_000_000;
const HIVE_MS = 3_000;
const head = (t: number) => H0 + Math.floor((t - T0) / HIVE_MS);
const blockTime = (h: number) => T0 + (h - H0) * HIVE_MS;
const AT_HEAD = "00000000-0000-4000-8000-0000000000c1";
const BEHIND = "00000000-0000-4000-8000-0000000000c2";
const SERVER = "00000000-0000-4000-8000-0000000000d1";
const AGENT = "00000000-0000-4000-8000-0000000000d2";
const MINUTES = 30;

async function seed(sql: SqlClient): Promise<void> {
  await insertFixtureFleet(sql);
  for (const [id, name] of [
    [AT_HEAD, "at-head"],
    [BEHIND, "behind"],
  ] as const)
    await sql.query(
      `INSERT INTO public_endpoints (id, network_id, api_family, url, name, status) VALUES ($1, $2, 'hive', $3, $3, 'active')`,
      [id, NETWORK_ID, `https://${name}.example`],
    );
  await sql.query(
    `INSERT INTO vantage_points (id, name, region, kind) VALUES ($1, 'server:eu', 'eu', 'server'), ($2, 'agent:x', 'eu', 'agent')`,
    [SERVER, AGENT],
  );
  const rows: ProbeResultInput[] = [];
  // One probe of each endpoint every 20 s at an odd offset, answered 137 ms later.
  for (let t = T0 + 1_234; t < T0 + MINUTES * 60_000; t += 20_000) {
    for (const [id, lag] of [
      [AT_HEAD, 0],
      [BEHIND, 20],
    ] as const) {
      const h = head(t + 137) - lag;
      rows.push({
        time: new Date(t),
        endpointId: id,
        vantagePointId: SERVER,
        ok: true,
        httpStatus: 200,
        headBlock: h,
        headTime: new Date(blockTime(h)),
        ttfbMs: 137,
        totalMs: 140,
      });
    }
    // An agent's bogus far-ahead head of the endpoint behind: never its network head, never its lag.
    rows.push({ time: new Date(t + 5), endpointId: BEHIND, vantagePointId: AGENT, ok: true, headBlock: H0 * 2 });
  }
  await insertProbeResults(sql, rows);
  for (let t = T0; t < T0 + MINUTES * 60_000; t += 10_000) {
    await insertNetworkHead(sql, {
      networkId: NETWORK_ID,
      time: new Date(t),
      anchorTime: new Date(blockTime(head(t))),
      headBlock: head(t),
      considered: 2,
      agreeing: 2,
      quorum: 2,
      evidence: [],
    });
  }
  await refreshRollups(sql, { from: new Date(T0), to: new Date(T0 + MINUTES * 60_000) }, new Date(T0 + 86_400_000));
  // What the ranking job writes: every minute of the endpoint behind lagged (3 of 3 probes); the one at
  // the head had one lagging probe of three in its first minute (not a lagging minute: under half).
  await upsertEndpointFreshnessMinutes(sql, [
    ...Array.from({ length: MINUTES }, (_, m) => ({
      endpointId: BEHIND,
      bucket: new Date(T0 + m * 60_000),
      probes: 3,
      lagging: 3,
      stale: 0,
    })),
    { endpointId: AT_HEAD, bucket: new Date(T0), probes: 3, lagging: 1, stale: 0 },
  ]);
}

async function readAll(sql: SqlClient) {
  const range = { from: new Date(T0), to: new Date(T0 + MINUTES * 60_000) };
  const series = async (endpointId: string, resolution: "raw" | "1m") =>
    (await getEndpointLagSeries(sql, { endpointId, ...range, resolution })).map((p) => p.lagBlocks);
  const availability = await getProbeAvailability(sql, { endpointIds: [AT_HEAD, BEHIND], ...range });
  const days = await queryEndpointUptimeDays(sql, { refIds: [AT_HEAD, BEHIND], ...range });
  return {
    atHeadRaw: await series(AT_HEAD, "raw"),
    behindRaw: await series(BEHIND, "raw"),
    behind1m: await series(BEHIND, "1m"),
    availability: [AT_HEAD, BEHIND].map((id) => availability.get(id)),
    days: [AT_HEAD, BEHIND].map((id) => {
      const d = days.find((x) => x.refId === id);
      return d && { measured: d.measuredMinutes, up: d.upMinutes, degraded: d.degradedMinutes };
    }),
  };
}

describe("lag and lagging minutes against stored consensus decisions", () => {
  let ts: TimescaleTestDatabase | undefined;
  let plain: Awaited<ReturnType<typeof readAll>>;
  after(async () => ts?.close());

  test("plain PostgreSQL", async () => {
    const db = await createTestDatabase();
    try {
      await seed(db.pool);
      plain = await readAll(db.pool);
    } finally {
      await db.drop();
    }
    assert.equal(plain.atHeadRaw.length, MINUTES);
    assert.ok(
      plain.atHeadRaw.every((l) => l === 0),
      `at head: ${plain.atHeadRaw.join(",")}`,
    );
    assert.ok(
      plain.behindRaw.every((l) => l === 20),
      `behind: ${plain.behindRaw.join(",")}`,
    );
    assert.deepEqual(plain.behind1m, plain.behindRaw, "1-minute buckets: the same probes, the same decisions");
    // Server probes only: 3 per minute; every minute of the endpoint behind lags (20 ≥ max(3, 10)).
    assert.deepEqual(plain.availability, [
      { probes: 90, ok: 90, okLagging: 0 },
      { probes: 90, ok: 90, okLagging: 90 },
    ]);
    assert.deepEqual(plain.days, [
      { measured: 30, up: 30, degraded: 0 },
      { measured: 30, up: 30, degraded: 30 },
    ]);
  });

  test("TimescaleDB mode gives the same answers", async () => {
    ts = await createTimescaleTestDatabase();
    await seed(ts.sql);
    assert.deepEqual(await readAll(ts.sql), plain);
  });
});
