import assert from "node:assert/strict";
import { it } from "node:test";
import { agentSampleSchema, type AgentSample } from "@rpcpulse/domain";
import { agentSamplesToAdvisorInput, clientConfigFromNodeArgs, evaluateNode } from "../src/index.js";

function sample(i: number, over: Partial<AgentSample> = {}): AgentSample {
  return agentSampleSchema.parse({
    collectedAt: new Date(Date.parse("2026-11-20T10:00:00Z") + i * 10_000).toISOString(),
    tcp: null,
    sockstat: null,
    netstat: {
      listenOverflows: { total: 100 + i, delta: i === 0 ? null : 1 },
      listenDrops: { total: 100 + i, delta: i === 0 ? null : 1 },
      tcpTimeWaitOverflow: { total: 0, delta: i === 0 ? null : 0 },
      intervalMs: i === 0 ? null : 10_000,
      counterReset: false,
    },
    conntrack: null,
    fds: {
      systemAllocated: 5000,
      systemMax: 100000,
      process: { pid: 42, name: "nethermind", openFds: 900, softLimit: 1024, hardLimit: 524288 },
    },
    host: null,
    disks: [
      {
        path: "/var/lib/node",
        totalBytes: 1000,
        freeBytes: 400,
        availableBytes: 300,
        inodesTotal: null,
        inodesFree: null,
        error: null,
      },
      {
        path: "/dev/shm",
        totalBytes: 8 * 1024 ** 3,
        freeBytes: 10,
        availableBytes: 10,
        inodesTotal: null,
        inodesFree: null,
        error: null,
      },
    ],
    settings: {
      tcpTwReuse: 2,
      tcpFinTimeout: 60,
      somaxconn: 4096,
      tcpMaxSynBacklog: 1024,
      tcpMaxTwBuckets: 262144,
      ipLocalPortRange: { low: 32768, high: 60999, size: 28232 },
      tcpTwRecycleLines: [],
      nodeArgs: [
        { flag: "--Db.MaxBytesPerSec", value: "1000000" },
        { flag: "--Network.MaxActivePeers", value: "20" },
      ],
    },
    chain: null,
    remoteIps: null,
    outbound: {
      portRange: null,
      distinctDestinations: 1,
      totalSockets: 7,
      top: [{ ip: "10.0.0.5", port: 8545, sockets: 7, established: 5, timeWait: 2, portRangeUsage: 0.0002 }],
    },
    self: null,
    errors: [],
    ...over,
  });
}

it("wire samples map to node_samples semantics, outbound rows and settings with clientConfig from nodeArgs", () => {
  const input = agentSamplesToAdvisorInput([sample(2), sample(0), sample(3), sample(1)], {
    node: { id: "n", family: "ethereum", clientVersion: "Nethermind/v1.32.0+1/linux-x64", publicPorts: [8545] },
  });
  assert.deepEqual(
    input.window.samples.map((s) => s.listenOverflows),
    [null, 1, 1, 1],
    "time-ordered; first delta null",
  );
  const s = input.window.samples[1]!;
  assert.equal(s.openFds, 900, "the node process's descriptors when a process is watched");
  assert.equal(s.fdLimit, 1024);
  assert.equal(s.diskFree, 300, "available bytes of the first non-/dev/shm disk");
  assert.equal(s.shmFree, 10);
  assert.equal(s.ephemeralInUse, 7);
  assert.equal(s.ephemeralRange, 28232);
  assert.equal(input.window.outbound?.length, 4);
  assert.equal(input.settings?.shmTotalBytes, 8 * 1024 ** 3);
  assert.deepEqual(input.settings?.clientConfig, {
    "--Db.MaxBytesPerSec": "1000000",
    "Db.MaxBytesPerSec": "1000000",
    "--Network.MaxActivePeers": "20",
    "Network.MaxActivePeers": "20",
  });
  const ids = evaluateNode(input).map((d) => d.ruleId);
  assert.ok(ids.includes("nethermind-removed-options"), ids.join());
  assert.ok(ids.includes("fd-near-limit"), ids.join());
  assert.ok(ids.includes("listen-overflows"), ids.join());
});

it("old agents (no nodeArgs) and no settings at all", () => {
  const old = sample(0);
  delete (old.settings as { nodeArgs?: unknown }).nodeArgs;
  assert.equal(
    agentSamplesToAdvisorInput([old], { node: { id: "n", family: "hive", clientVersion: null, publicPorts: [] } })
      .settings?.clientConfig,
    null,
  );
  assert.equal(
    agentSamplesToAdvisorInput([sample(0, { settings: null })], {
      node: { id: "n", family: "hive", clientVersion: null, publicPorts: [] },
    }).settings,
    null,
  );
  assert.equal(clientConfigFromNodeArgs([]), null);
});
