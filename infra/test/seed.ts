/**
 * A small fleet with three hours of history, written through @rpcpulse/db's insert functions so
 * the dashboards read rows shaped exactly like production ones (both storage modes).
 *
 *   alpha    healthy: lag 0, head age 1.5 s, samples up to now, top remote IPs
 *   bravo    lagging: 8 blocks behind, samples up to now
 *   charlie  down: its last sample is 30 minutes old
 *   delta    down: enrolled, never reported
 *   xray     healthy, but in another organization (must never show up in ORG's dashboards)
 */
import {
  insertNodeSamples,
  writeBeaconSamples,
  insertRemoteIps,
  type NodeSampleInput,
  type RemoteIpSampleInput,
} from "@rpcpulse/db/fleet";
import { insertProducer, recordProducerReading, recordValidatorReading } from "@rpcpulse/db/producers";
import { refreshRollups } from "@rpcpulse/db/platform";
import { type SqlClient } from "@rpcpulse/db/sql";
import { createTestNode, createTestOrg } from "@rpcpulse/db/testing";

export const ORG = "org_grafana_fixture_000000000001";
export const OTHER_ORG = "org_grafana_fixture_000000000002";
export const NETWORK = "00000000-0000-4000-8000-00000000a0a0";
export const NODES = {
  alpha: "00000000-0000-4000-8000-00000000a001",
  bravo: "00000000-0000-4000-8000-00000000a002",
  charlie: "00000000-0000-4000-8000-00000000a003",
  delta: "00000000-0000-4000-8000-00000000a004",
  xray: "00000000-0000-4000-8000-00000000a005",
} as const;
export type NodeName = keyof typeof NODES;

/** Sample spacing and history length. */
export const STEP_MS = 60_000;
export const HISTORY_MS = 3 * 3_600_000;
/** Latencies cycled through (ms): they land in different histogram buckets. */
const LATENCIES = [3, 8, 20, 40, 80, 200, 400, 900, 60, 30];

function sample(nodeId: string, time: Date, k: number, lagging: boolean): NodeSampleInput {
  const total = LATENCIES[k % LATENCIES.length] ?? 10;
  return {
    time,
    nodeId,
    tcpEstablished: 100 + (k % 7),
    tcpSynRecv: k % 3,
    tcpFinWait1: 1,
    tcpFinWait2: 2,
    tcpTimeWait: 50 + (k % 11),
    tcpCloseWait: k % 2,
    tcpLastAck: 0,
    tcpClosing: 0,
    tcpListen: 4,
    timeWaitIn: 30 + (k % 5),
    timeWaitOut: 20 + (k % 6),
    sockInuse: 120,
    sockOrphan: k % 4,
    sockTw: 50 + (k % 11),
    sockAlloc: 130,
    sockMem: 40,
    listenOverflows: k % 5,
    listenDrops: k % 5,
    twOverflows: k % 2,
    distinctRemoteIps: 3,
    conntrackCount: 500 + k,
    conntrackMax: 262_144,
    openFds: 300 + (k % 9),
    fdLimit: 1_048_576,
    ephemeralInUse: 40 + (k % 3),
    ephemeralRange: 28_232,
    headBlock: 1_000 + k,
    headTime: new Date(time.getTime() - (lagging ? 30_000 : 1_500)),
    finalizedBlock: 980 + k,
    lagBlocks: lagging ? 8 : 0,
    headAgeMs: lagging ? 30_000 : 1_500,
    peers: 20,
    syncing: false,
    connectMs: 0.4,
    ttfbMs: total - 0.5,
    totalMs: total,
    cpuPct: 10 + (k % 50),
    load1: 0.5 + (k % 4) / 4,
    memAvailable: 8_000_000_000 - k * 1_000_000,
    memTotal: 16_000_000_000,
    shmem: 100_000_000,
    swapUsed: 1_000_000,
    diskFree: 500_000_000_000 - k * 1_000_000,
    diskTotal: 1_000_000_000_000,
    shmFree: 4_000_000_000,
    clockSkewMs: 12,
    batchSeq: k,
  };
}

export interface SeededFleet {
  now: Date;
}

/** Writes the fleet and its history ending at `now`, then materializes the rollups. */
export async function seedFleet(sql: SqlClient, now: Date): Promise<SeededFleet> {
  await sql.query(
    `INSERT INTO chains (slug, name, api_families, finality, finality_note)
     VALUES ('hive', 'Hive', '{hive}', 'irreversible', 'fixture') ON CONFLICT DO NOTHING`,
  );
  await sql.query(
    `INSERT INTO networks (id, slug, chain_slug, name, block_interval_ms, testnet)
     VALUES ($1, 'grafana-fixture-net', 'hive', 'Grafana fixture net', 3000, true)`,
    [NETWORK],
  );
  await createTestOrg(sql, { id: ORG, name: "Fixture org", slug: "grafana-fixture" });
  await createTestOrg(sql, { id: OTHER_ORG, name: "Other org", slug: "grafana-other" });
  // Time of the last accepted push, as ingest records it.
  const lastSeen: Record<NodeName, Date | null> = {
    alpha: now,
    bravo: now,
    charlie: new Date(now.getTime() - 30 * 60_000),
    delta: null,
    xray: now,
  };
  for (const [name, id] of Object.entries(NODES) as [NodeName, string][]) {
    await createTestNode(sql, {
      id,
      organizationId: name === "xray" ? OTHER_ORG : ORG,
      networkId: NETWORK,
      clientVersion: "1.27.11",
      name,
      lastSeenAt: lastSeen[name],
      agentVersion: lastSeen[name] ? "0.1.0" : null,
    });
  }

  await seedWitness(sql, now);
  await seedValidator(sql, now);

  const samples: NodeSampleInput[] = [];
  const ips: RemoteIpSampleInput[] = [];
  const steps = HISTORY_MS / STEP_MS;
  for (let k = 0; k <= steps; k++) {
    const time = new Date(now.getTime() - (steps - k) * STEP_MS);
    samples.push(sample(NODES.alpha, time, k, false), sample(NODES.bravo, time, k, true));
    samples.push(sample(NODES.xray, time, k, false));
    if (now.getTime() - time.getTime() >= 30 * 60_000) samples.push(sample(NODES.charlie, time, k, false));
    ips.push(
      { time, nodeId: NODES.alpha, ip: "203.0.113.7", conns: 40 + (k % 10) },
      { time, nodeId: NODES.alpha, ip: "198.51.100.20", conns: 5 + (k % 3) },
      { time, nodeId: NODES.alpha, ip: "2001:db8::42", conns: 2 },
    );
  }
  await insertNodeSamples(sql, samples);
  await insertRemoteIps(sql, ips);
  await seedBeacon(sql, now);
  // The network's consensus decisions over the same history: three blocks ahead of alpha's head.
  for (let k = 0; k <= steps; k++) {
    const time = new Date(now.getTime() - (steps - k) * STEP_MS);
    await sql.query(
      `INSERT INTO network_heads (network_id, time, anchor_time, head_block, considered, agreeing, quorum)
       VALUES ($1, $2, $2, $3, 3, 3, 2)`,
      [NETWORK, time, 1_003 + k],
    );
  }
  await refreshRollups(sql, { from: new Date(now.getTime() - HISTORY_MS - 3_600_000), to: now });
  return { now };
}

const NETWORK_SLUG = "grafana-fixture-net";

/** Consensus-client readings of alpha (and xray, the other organization's) every STEP_MS, slipping behind by a slot each hour. */
async function seedBeacon(sql: SqlClient, now: Date): Promise<void> {
  const steps = HISTORY_MS / STEP_MS;
  const rows = (k: number) => {
    const time = now.getTime() - (steps - k) * STEP_MS;
    const wallSlot = Math.floor(time / 12_000);
    const behind = Math.floor((k * STEP_MS) / 3_600_000);
    return {
      time,
      ok: true,
      headSlot: wallSlot - behind,
      wallSlot,
      slotsBehind: behind,
      syncDistance: behind,
      syncing: behind > 0,
      optimistic: false,
      elOffline: false,
      peers: 60 - (k % 7),
      version: "Lighthouse/v7.1.0",
      execBlock: 20_000_000 + k,
      execHash: null,
      elBlock: 20_000_000 + k,
      elCheck: null,
      error: null,
    };
  };
  const history = Array.from({ length: steps + 1 }, (_, k) => rows(k));
  await writeBeaconSamples(sql, [
    { nodeId: NODES.alpha, beacon: history },
    { nodeId: NODES.xray, beacon: history },
  ]);
}

/** A validator stash of ORG (and one of OTHER_ORG) read every 5 STEP_MS: era points growing against the median, an era every 6 h. */
async function seedValidator(sql: SqlClient, now: Date): Promise<void> {
  for (const [org, stash] of [
    [ORG, "15qwKhgm3HC8Jm8i65ix8tvBN4bsTgvNNE9wXGR8AWR4PhjE"],
    [OTHER_ORG, "12MWHKofXx1Zrsraqg76cwT37AY64ciMkqGTkskZ9Qbkv6zH"],
  ] as const) {
    const p = await insertProducer(sql, {
      organizationId: org,
      network: NETWORK_SLUG,
      kind: "validator",
      account: stash,
    });
    if (!p) throw new Error("the fixture network has no slug");
    const steps = HISTORY_MS / STEP_MS;
    for (let k = 0; k <= steps; k += 5) {
      const time = new Date(now.getTime() - (steps - k) * STEP_MS);
      const eraMs = 6 * 3_600_000;
      const progress = (time.getTime() % eraMs) / eraMs;
      await recordValidatorReading(sql, {
        producerId: p.id,
        observedAt: time,
        source: "http://127.0.0.1:8080",
        headBlock: 28_000_000 + k * 10,
        activeEra: Math.floor(time.getTime() / eraMs),
        eraProgress: progress,
        status: "active",
        eraPoints: Math.round(progress * 900),
        medianPoints: Math.round(progress * 1_000),
        setSize: 297,
        commissionPpb: 30_000_000,
        blocked: false,
        sessionKeys: null,
        keysOnNode: null,
        keysNode: null,
        payouts: null,
        scannedBlock: null,
        offlineReports: [],
      });
    }
  }
}

/** A witness of ORG (and one of OTHER_ORG) read every 5 STEP_MS, missing a block every 40 minutes, its feed ageing. */
async function seedWitness(sql: SqlClient, now: Date): Promise<void> {
  for (const [org, account] of [
    [ORG, "alpha-witness"],
    [OTHER_ORG, "xray-witness"],
  ] as const) {
    const p = await insertProducer(sql, { organizationId: org, network: NETWORK_SLUG, account });
    if (!p) throw new Error("the fixture network has no slug");
    const steps = HISTORY_MS / STEP_MS;
    for (let k = 0; k <= steps; k += 5) {
      const time = new Date(now.getTime() - (steps - k) * STEP_MS);
      await recordProducerReading(sql, {
        producerId: p.id,
        observedAt: time,
        source: "http://127.0.0.1:8091",
        headBlock: 1_000_000 + k * 20,
        totalMissed: 10 + Math.floor(k / 40),
        lastConfirmedBlock: 999_990 + k * 20,
        signingKey: "STM5fixture",
        disabled: false,
        runningVersion: "1.27.11",
        hardforkVote: "1.27.0",
        majorityVersion: "1.27.11",
        feedBase: "0.250 HBD",
        feedQuote: "1.000 HIVE",
        feedUpdatedAt: new Date(now.getTime() - HISTORY_MS - 3_600_000),
        votes: "1000",
        rank: null,
        inSchedule: true,
      });
    }
  }
}
