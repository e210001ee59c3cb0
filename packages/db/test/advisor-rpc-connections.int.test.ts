// rpc_connections (all listed remote-IP connections per sample: the verification series of the
// advisor's Substrate RPC connection-cap rule) in both storage modes, on the same rows.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getAdvisorMetricSeries } from "@rpcpulse/db/advisor";
import { insertNodeSamples, insertRemoteIps } from "@rpcpulse/db/fleet";
import { type SqlClient } from "@rpcpulse/db/sql";
import {
  createTestDatabase,
  createTimescaleTestDatabase,
  type TestDatabase,
  type TimescaleTestDatabase,
} from "../src/testing.js";

const NODE = "00000000-0000-4000-8000-00000000ad02";
const START = Date.UTC(2026, 0, 6, 8, 0, 0);
const MIN = 60_000;

async function arrange(sql: SqlClient): Promise<void> {
  const samples = [];
  const ips = [];
  for (let i = 0; i < 12; i++) {
    const time = new Date(START + i * MIN);
    // i = 3: nobody connected (0); i = 7: the remote-IP source was not read (left out).
    const distinct = i === 7 ? null : i === 3 ? 0 : 3;
    samples.push({ time, nodeId: NODE, distinctRemoteIps: distinct });
    if (distinct) {
      ips.push({ time, nodeId: NODE, ip: "203.0.113.1", conns: 40 + i });
      ips.push({ time, nodeId: NODE, ip: "203.0.113.2", conns: 30 });
      ips.push({ time, nodeId: NODE, ip: "2001:db8::9", conns: 5 });
    }
  }
  await insertNodeSamples(sql, samples);
  await insertRemoteIps(sql, ips);
}

async function read(sql: SqlClient) {
  const range = { nodeId: NODE, from: new Date(START), to: new Date(START + 12 * MIN) };
  const sum = await getAdvisorMetricSeries(sql, { ...range, metric: "rpc_connections" });
  const top = await getAdvisorMetricSeries(sql, { ...range, metric: "top_ip_connections" });
  return { resolution: sum.resolution, sum: sum.points.map((p) => p.value), top: top.points.map((p) => p.value) };
}

describe("advisor rpc_connections series", () => {
  let plain: TestDatabase;
  let ts: TimescaleTestDatabase;
  before(async () => {
    plain = await createTestDatabase();
    ts = await createTimescaleTestDatabase();
    await arrange(plain.sql);
    await arrange(ts.sql);
  });
  after(async () => {
    await plain?.drop();
    await ts?.close();
  });

  test("sum of the listed connections per sample, 0 when nobody was connected, same in both modes", async () => {
    const a = await read(plain.sql);
    const b = await read(ts.sql);
    assert.deepEqual(a, b);
    assert.equal(a.resolution, "raw");
    const expected = [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11].map((i) => (i === 3 ? 0 : 40 + i + 30 + 5));
    assert.deepEqual(a.sum, expected);
    assert.deepEqual(
      a.top,
      [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11].map((i) => (i === 3 ? 0 : 40 + i)),
    );
  });
});
