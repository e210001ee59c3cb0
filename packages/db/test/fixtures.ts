import type { NodeSampleInput } from "@rpcpulse/db/fleet";
import type { ProbeResultInput } from "@rpcpulse/db/directory";
import type { SqlClient } from "@rpcpulse/db/sql";
import { createTestNode, createTestOrg } from "../src/testing.js";

export const ORG_ID = "org_fixture_00000000000000000001";
export const NODE_1 = "00000000-0000-4000-8000-000000000001";
export const NODE_2 = "00000000-0000-4000-8000-000000000002";
export const NETWORK_ID = "00000000-0000-4000-8000-0000000000aa";
export const ENDPOINT = "00000000-0000-4000-8000-0000000000e1";
export const VP_1 = "00000000-0000-4000-8000-0000000000b1";
export const VP_2 = "00000000-0000-4000-8000-0000000000b2";

/** Organization, network and the two nodes, in plain SQL so it runs on pg and PGlite alike. */
export async function insertFixtureFleet(sql: SqlClient): Promise<void> {
  await sql.query(
    `INSERT INTO chains (slug, name, api_families, finality, finality_note)
     VALUES ('hive', 'Hive', '{hive}', 'irreversible', 'fixture') ON CONFLICT DO NOTHING`,
  );
  await sql.query(
    `INSERT INTO networks (id, slug, chain_slug, name, block_interval_ms, testnet)
     VALUES ($1, 'fixture-net', 'hive', 'Fixture', 3000, true)`,
    [NETWORK_ID],
  );
  await createTestOrg(sql, { id: ORG_ID, name: "Fixture org", slug: "fixture-org" });
  for (const [id, name] of [
    [NODE_1, "node-1"],
    [NODE_2, "node-2"],
  ] as const) {
    await createTestNode(sql, { id, organizationId: ORG_ID, networkId: NETWORK_ID, name });
  }
}

const at = (iso: string) => new Date(`2026-01-05T${iso}Z`);

/**
 * Node 1: five samples across the 10:59 and 11:00 minutes (and the 10:00 and 11:00 hours).
 * Expected rollups are worked out by hand in the tests.
 */
export const NODE_1_SAMPLES: NodeSampleInput[] = [
  {
    time: at("10:59:00"),
    est: 10,
    lo: 1,
    ms: 4,
    head: 100,
    lag: 0,
    sync: false,
    cpu: 10,
    mem: 1000,
    skew: -5,
    peers: 8,
  },
  { time: at("10:59:20"), est: 20, lo: 0, ms: 30, head: 101, lag: 1, sync: true, cpu: 20, mem: 900, skew: 3, peers: 9 },
  {
    time: at("10:59:40"),
    est: 30,
    lo: 2,
    ms: 120,
    head: 102,
    lag: 0,
    sync: false,
    cpu: 30,
    mem: 800,
    skew: 0,
    peers: 10,
  },
  {
    time: at("11:00:00"),
    est: 40,
    lo: 5,
    ms: null,
    head: 103,
    lag: 2,
    sync: false,
    cpu: 40,
    mem: 700,
    skew: 12,
    peers: 11,
  },
  {
    time: at("11:00:30"),
    est: 50,
    lo: null,
    ms: 7,
    head: 104,
    lag: null,
    sync: false,
    cpu: 50,
    mem: 600,
    skew: -20,
    peers: 12,
  },
].map((s, i) => ({
  time: s.time,
  nodeId: NODE_1,
  tcpEstablished: s.est,
  tcpTimeWait: s.est * 2,
  tcpCloseWait: i,
  tcpListen: 3,
  timeWaitIn: s.est,
  timeWaitOut: s.est,
  sockInuse: s.est + 5,
  sockTw: s.est * 2,
  listenOverflows: s.lo,
  listenDrops: s.lo,
  distinctRemoteIps: 4 + i,
  openFds: 100 + i,
  fdLimit: 1_048_576,
  headBlock: s.head,
  headTime: s.time,
  finalizedBlock: s.head - 20,
  lagBlocks: s.lag,
  headAgeMs: 1500,
  peers: s.peers,
  syncing: s.sync,
  connectMs: s.ms === null ? null : 1,
  ttfbMs: s.ms === null ? null : s.ms - 1,
  totalMs: s.ms,
  cpuPct: s.cpu,
  load1: s.cpu / 10,
  memAvailable: s.mem,
  memTotal: 4000,
  diskFree: 5_000_000_000_000 - i,
  diskTotal: 8_000_000_000_000,
  clockSkewMs: s.skew,
  batchSeq: 7,
}));

export const NODE_2_SAMPLES: NodeSampleInput[] = [
  { time: at("10:59:00"), nodeId: NODE_2, tcpEstablished: 1, headBlock: 5 },
  { time: at("11:00:10"), nodeId: NODE_2, tcpEstablished: 2, headBlock: 6 },
];

export const PROBES: ProbeResultInput[] = [
  {
    time: at("10:59:05"),
    endpointId: ENDPOINT,
    vantagePointId: VP_1,
    ok: true,
    httpStatus: 200,
    dnsMs: 10,
    connectMs: 20,
    tlsMs: 30,
    ttfbMs: 90,
    totalMs: 100,
    headBlock: 100,
    responseBytes: 500,
  },
  {
    time: at("10:59:35"),
    endpointId: ENDPOINT,
    vantagePointId: VP_1,
    ok: true,
    httpStatus: 200,
    dnsMs: 0,
    connectMs: 20,
    tlsMs: 30,
    ttfbMs: 290,
    totalMs: 300,
    headBlock: 102,
    responseBytes: 500,
  },
  {
    time: at("10:59:10"),
    endpointId: ENDPOINT,
    vantagePointId: VP_2,
    ok: false,
    errorClass: "timeout",
    errorMessage: "x".repeat(2000),
    responseBytes: null,
  },
  {
    time: at("10:59:40"),
    endpointId: ENDPOINT,
    vantagePointId: VP_2,
    ok: true,
    httpStatus: 200,
    dnsMs: 5,
    connectMs: 10,
    tlsMs: 15,
    ttfbMs: 190,
    totalMs: 200,
    headBlock: 101,
    responseBytes: 400,
  },
  {
    time: at("11:00:05"),
    endpointId: ENDPOINT,
    vantagePointId: VP_1,
    ok: false,
    httpStatus: 429,
    rateLimited: true,
    errorClass: "http_429",
  },
];

export const WINDOW = { from: at("10:00:00"), to: at("12:00:00") };

/** Round floats so results of two engines compare exactly. */
export function rounded<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (_k, v: unknown) => (typeof v === "number" ? Math.round(v * 1e6) / 1e6 : v)),
  ) as T;
}
