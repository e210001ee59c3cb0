import { agentSampleSchema, type AgentSample } from "@rpcpulse/domain";

/** A known, schema-valid sample whose figures the Prometheus tests assert one by one. */
export function makeKnownSample(): AgentSample {
  const states = {
    established: 120,
    synSent: 1,
    synRecv: 2,
    finWait1: 0,
    finWait2: 3,
    timeWait: 50,
    close: 0,
    closeWait: 4,
    lastAck: 0,
    listen: 6,
    closing: 0,
  };
  return agentSampleSchema.parse({
    collectedAt: "2026-11-24T12:00:00.000Z",
    tcp: {
      states,
      total: 186,
      ipv4: 150,
      ipv6: 36,
      timeWaitInbound: 30,
      timeWaitOutbound: 20,
      listeningPorts: [8091, 30333],
      scanMs: 2.5,
    },
    sockstat: null,
    netstat: {
      listenOverflows: { total: 17, delta: 2 },
      listenDrops: { total: 19, delta: 2 },
      tcpTimeWaitOverflow: { total: 0, delta: 0 },
      intervalMs: 10_000,
      counterReset: false,
    },
    conntrack: { count: 900, max: 262_144 },
    fds: { systemAllocated: 4096, systemMax: 1_000_000, process: null },
    host: {
      cpuPct: 12.5,
      cpuCount: 8,
      load1: 1.25,
      load5: 1,
      load15: 0.75,
      memTotalBytes: 16_000_000_000,
      memAvailableBytes: 8_000_000_000,
      shmemBytes: 1_000_000,
      swapTotalBytes: 0,
      swapUsedBytes: 0,
      uptimeSeconds: 3600,
    },
    disks: [
      {
        path: "/data",
        totalBytes: 1_000_000_000_000,
        freeBytes: 400_000_000_000,
        availableBytes: 350_000_000_000,
        inodesTotal: 1000,
        inodesFree: 600,
        error: null,
      },
    ],
    settings: null,
    chain: {
      family: "substrate",
      ok: true,
      headBlock: 1000,
      headHash: "0xabc",
      headTime: "2026-11-24T11:59:54.000Z",
      headTimeSource: "storage",
      headAgeMs: 6000,
      finalizedBlock: 998,
      peers: null,
      syncing: false,
      clientVersion: "polkadot 1.0",
      latency: { connectMs: 1.5, firstByteMs: 12, totalMs: 13 },
      error: null,
    },
    remoteIps: {
      ports: [8091],
      distinctIps: 3,
      totalConnections: 70,
      top: [
        { ip: "203.0.113.7", connections: 40, established: 40, timeWait: 5 },
        { ip: "2001:db8::1", connections: 25, established: 25, timeWait: 0 },
      ],
    },
    outbound: null,
    self: { cpuPct: 0.5, rssBytes: 40_000_000, collectMs: 25, spoolBacklog: 2, spoolDropped: 0 },
    errors: [],
  });
}

/** What a Substrate node serves on :9615/metrics (the names the agent reads, among others). */
export const SUBSTRATE_METRICS = `# HELP substrate_block_height Block height info of the chain
# TYPE substrate_block_height gauge
substrate_block_height{status="best",chain="polkadot"} 1000
substrate_block_height{status="finalized",chain="polkadot"} 997
substrate_block_height{status="sync_target",chain="polkadot"} 1010
# HELP substrate_sub_libp2p_peers_count Number of connected peers
# TYPE substrate_sub_libp2p_peers_count gauge
substrate_sub_libp2p_peers_count{chain="polkadot"} 42
# HELP substrate_sub_libp2p_is_major_syncing Whether the node is performing a major sync or not.
# TYPE substrate_sub_libp2p_is_major_syncing gauge
substrate_sub_libp2p_is_major_syncing{chain="polkadot"} 1
# HELP substrate_ready_transactions_number Number of transactions in the ready queue
# TYPE substrate_ready_transactions_number gauge
substrate_ready_transactions_number{chain="polkadot"} 0
`;

/** What Geth serves on :6060/debug/metrics/prometheus with --metrics. */
export const GETH_METRICS = `# TYPE chain_head_block gauge
chain_head_block 19000000

# TYPE chain_head_header gauge
chain_head_header 19000000

# TYPE chain_head_finalized gauge
chain_head_finalized 18999936

# TYPE p2p_peers gauge
p2p_peers 50

# TYPE chain_execution_count counter
chain_execution_count 123
`;
