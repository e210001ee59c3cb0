import type { AdvisorInput } from "../src/index.js";
import { GIB, build, defaultIps, faulty } from "./fixtures.js";
import { finalityStalled } from "./finality-fixtures.js";
import { clockBehind, clockOffByIngest } from "./clock-fixtures.js";

/** Varied faulty inputs, each expected to raise `ruleId` (and used to harvest every snippet). */
export interface Case {
  name: string;
  ruleId: string;
  input: AdvisorInput;
}

export const geth = {
  family: "ethereum" as const,
  clientVersion: "Geth/v1.16.7-stable-b9f3a3d9/linux-amd64/go1.24.10",
  blockIntervalMs: 12000,
};
export const nethermind = {
  family: "ethereum" as const,
  clientVersion: "Nethermind/v1.33.1+7a1b2c3d/linux-x64/dotnet9.0.9",
  blockIntervalMs: 12000,
};
export const hived = {
  family: "hive" as const,
  chain: "hive",
  clientVersion: "1.27.11",
  blockIntervalMs: 3000,
  rpcPort: 8091,
};
export const steemd = {
  family: "hive" as const,
  chain: "steem",
  clientVersion: "0.23.1",
  blockIntervalMs: 3000,
  rpcPort: 8091,
};
export const substrate = {
  family: "substrate" as const,
  clientVersion: "1.16.0-87971b3e927",
  blockIntervalMs: 6000,
  rpcPort: 9944,
};

export const CASES: Case[] = [
  ...[
    { file: "/etc/sysctl.conf", line: 12 },
    { file: "/etc/sysctl.d/99-tuning's.conf", line: 3 },
  ].map((l, k) => ({
    name: `tw_recycle #${k}`,
    ruleId: "tcp-tw-recycle-obsolete",
    input: build({ settings: { tcpTwRecycleLines: [{ ...l, text: "net.ipv4.tcp_tw_recycle = 1" }] } }),
  })),
  ...[1500, 9000, 40000].map((tw) => ({
    name: `inbound TW ${tw}`,
    ruleId: "inbound-time-wait",
    input: faulty.inboundTw(tw),
  })),
  { name: "outbound remote 16k", ruleId: "outbound-port-exhaustion", input: faulty.outbound("10.0.0.5", 8545, 16000) },
  {
    name: "outbound remote 26k tw_reuse 0",
    ruleId: "outbound-port-exhaustion",
    input: faulty.outbound("10.1.2.3", 443, 26000, { tcpTwReuse: 0 }),
  },
  {
    name: "outbound loopback 24k",
    ruleId: "outbound-port-exhaustion",
    input: faulty.outbound("127.0.0.1", 8545, 24000, { tcpTwReuse: 0 }),
  },
  {
    name: "outbound ipv6 remote, narrow range",
    ruleId: "outbound-port-exhaustion",
    input: faulty.outbound("2001:db8::7", 9944, 6000, { ipLocalPortRange: { low: 50000, high: 59999 } }),
  },
  {
    name: "outbound aggregate only (no per-destination rows)",
    ruleId: "outbound-port-exhaustion",
    input: build({ sample: (i) => ({ ephemeralInUse: 600 * i, ephemeralRange: 28232 }) }),
  },
  {
    name: "outbound TIME_WAIT aggregate only",
    ruleId: "nginx-upstream-keepalive",
    input: build({
      node: { rpcPort: 8091 },
      sample: () => ({ timeWaitOut: 5000, timeWaitIn: 30, ephemeralInUse: 5100 }),
    }),
  },
  ...[1200, 8000].map((tw) => ({
    name: `churn ${tw}`,
    ruleId: "nginx-upstream-keepalive",
    input: faulty.churn(8545, tw),
  })),
  ...[
    { fw: 300, t: 60 },
    { fw: 2500, t: 120 },
  ].map((c) => ({ name: `fin_wait2 ${c.fw}`, ruleId: "fin-wait2-orphans", input: faulty.finWait2(c.fw, c.t) })),
  ...[2, 15].map((s) => ({ name: `close_wait +${s}/sample`, ruleId: "close-wait-leak", input: faulty.closeWait(s) })),
  { name: "listen 40/sample", ruleId: "listen-overflows", input: faulty.listen(40) },
  {
    name: "listen 5000/sample, somaxconn 128",
    ruleId: "listen-overflows",
    input: faulty.listen(5000, { somaxconn: 128, tcpMaxSynBacklog: 256 }),
  },
  {
    name: "listen 700/sample with SYN_RECV pile-up",
    ruleId: "listen-overflows",
    input: build({
      sample: (i) => ({ listenOverflows: i % 3 ? 0 : 700, tcpSynRecv: 300 }),
      settings: { tcpMaxSynBacklog: 512 },
    }),
  },
  { name: "listen 90000/sample (cap 65535)", ruleId: "listen-overflows", input: faulty.listen(90000) },
  ...[
    [210000, 262144],
    [65000, 65536],
  ].map(([c, m]) => ({ name: `conntrack ${c}/${m}`, ruleId: "conntrack-near-full", input: faulty.conntrack(c!, m!) })),
  { name: "fds 900/1024 geth", ruleId: "fd-near-limit", input: faulty.fds(900, 1024) },
  {
    name: "fds 60000/65536 hived",
    ruleId: "fd-near-limit",
    input: build({ node: hived, sample: () => ({ openFds: 60000, fdLimit: 65536 }) }),
  },
  {
    name: "fds 400000/500000 substrate",
    ruleId: "fd-near-limit",
    input: build({ node: substrate, sample: () => ({ openFds: 400000, fdLimit: 500000 }) }),
  },
  { name: "flood 300 on 80,443", ruleId: "connection-flood", input: faulty.flood("203.0.113.9", 300, [80, 443]) },
  { name: "flood 80 on 8545", ruleId: "connection-flood", input: faulty.flood("192.0.2.44", 80, [8545]) },
  {
    name: "flood like the demo: one loopback IP, no public ports known",
    ruleId: "connection-flood",
    input: build({
      node: { publicPorts: [], rpcPort: 18545 },
      remoteIps: () => [
        { ip: "127.0.0.77", connections: 120 },
        { ip: "127.0.0.1", connections: 2 },
      ],
    }),
  },
  {
    name: "flood 2000 on 4 ports",
    ruleId: "connection-flood",
    input: faulty.flood("192.0.2.45", 2000, [80, 443, 8545, 8546]),
  },
  { name: "lag geth", ruleId: "lagging-few-peers", input: faulty.lagging(geth, 40, 2, { "--maxpeers": "10" }) },
  { name: "lag geth default", ruleId: "lagging-few-peers", input: faulty.lagging(geth, 15, 4) },
  {
    name: "lag nethermind",
    ruleId: "lagging-few-peers",
    input: faulty.lagging(nethermind, 25, 1, { "Network.MaxActivePeers": "20" }),
  },
  { name: "lag hived", ruleId: "lagging-few-peers", input: faulty.lagging(hived, 200, 0) },
  {
    name: "lag substrate",
    ruleId: "lagging-few-peers",
    input: faulty.lagging(substrate, 60, 3, { "--out-peers": "8" }),
  },
  {
    name: "hived state > shm",
    ruleId: "state-exceeds-memory",
    input: faulty.hivedState({ sharedFileSize: "24G", dir: "/dev/shm/hived", shmTotal: 16 * GIB, memTotal: 64 * GIB }),
  },
  {
    name: "hived state > RAM",
    ruleId: "state-exceeds-memory",
    input: faulty.hivedState({ sharedFileSize: "48G", dir: "/run/hive", shmTotal: 16 * GIB, memTotal: 32 * GIB }),
  },
  {
    name: "steemd state > shm",
    ruleId: "state-exceeds-memory",
    input: faulty.hivedState({
      sharedFileSize: "70G",
      dir: "/dev/shm",
      shmTotal: 64 * GIB,
      memTotal: 128 * GIB,
      chain: "steem",
    }),
  },
  {
    name: "hived MIRA",
    ruleId: "hived-mira-obsolete",
    input: build({
      node: hived,
      settings: { clientConfig: { "memory-replay-indices": "account_index", "shared-file-size": "24G" } },
    }),
  },
  {
    name: "nethermind removed",
    ruleId: "nethermind-removed-options",
    input: faulty.nethermind("1.31.4", 16, { "Db.MaxBytesPerSec": "1000000", "Db.StateDbDisableCompression": "true" }),
  },
  ...[31, 200, 512].map((g) => ({
    name: `nethermind tier ${g}`,
    ruleId: "nethermind-memory-tier",
    input: faulty.nethermind("1.33.1", g),
  })),
  {
    name: "nethermind peers at cap",
    ruleId: "nethermind-peers-at-cap",
    input: build({ node: nethermind, sample: () => ({ peers: 50, lagBlocks: 4 }) }),
  },
  { name: "substrate rpc 100", ruleId: "substrate-rpc-connection-cap", input: faulty.substrateRpc(100) },
  { name: "substrate rpc 480/500", ruleId: "substrate-rpc-connection-cap", input: faulty.substrateRpc(480, 500) },
  ...[1500, 4000].map((ms) => ({ name: `sidecar ${ms}`, ruleId: "sidecar-block-latency", input: faulty.sidecar(ms) })),
  {
    name: "tw bucket overflow",
    ruleId: "tw-bucket-overflow",
    input: build({ sample: (i) => ({ twOverflows: i > 20 ? 30 : 0 }), settings: { tcpMaxTwBuckets: 131072 } }),
  },
  { name: "steemd lag", ruleId: "lagging-few-peers", input: faulty.lagging(steemd, 30, 1) },
  { name: "stalled hived", ruleId: "stalled-head", input: faulty.stalled(hived, 10) },
  { name: "stalled geth, syncing", ruleId: "stalled-head", input: faulty.stalled(geth, 19, { syncing: true }) },
  { name: "stalled nethermind, 3 peers", ruleId: "stalled-head", input: faulty.stalled(nethermind, 25, { peers: 3 }) },
  { name: "stalled substrate, 0 peers", ruleId: "stalled-head", input: faulty.stalled(substrate, 12, { peers: 0 }) },
  {
    name: "geth, finality stalled 20 min",
    ruleId: "finality-stalled",
    input: finalityStalled(geth, 120, { depth: 70 }),
  },
  { name: "polkadot, GRANDPA stalled 10 min", ruleId: "finality-stalled", input: finalityStalled(substrate, 60) },
  {
    name: "hived, LIB stuck, 30 blocks behind",
    ruleId: "finality-stalled",
    input: finalityStalled(hived, 40, { depth: 18, lagBlocks: 30 }),
  },
  {
    name: "sidecar, finalized stuck",
    ruleId: "finality-stalled",
    input: finalityStalled({ family: "sidecar", clientVersion: "20.3.0", blockIntervalMs: 6000, rpcPort: 8080 }, 70),
  },
  {
    name: "local proxy on ::1",
    ruleId: "connection-flood",
    input: build({
      node: { publicPorts: [8545] },
      remoteIps: (i) => [...defaultIps(i), { ip: "::1", connections: 200 }],
    }),
  },
  { name: "geth, blocks 12 s in the host's future", ruleId: "clock-skew", input: clockBehind(geth, 12_000) },
  { name: "hived, agent clock 95 s ahead", ruleId: "clock-skew", input: clockOffByIngest(hived, 95_000) },
  {
    name: "polkadot, 30 s behind on both signals",
    ruleId: "clock-skew",
    input: clockOffByIngest(substrate, -30_000, { headAgeMs: -29_000 }),
  },
];
