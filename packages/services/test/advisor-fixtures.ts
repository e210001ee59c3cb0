import { insertNodeSamples, insertRemoteIps, type NodeSampleInput } from "@rpcpulse/db/fleet";
import { createTestNode, type TestDatabase } from "@rpcpulse/db/testing";
import type { AgentBatch, AgentSample } from "@rpcpulse/domain";
import type { ServiceContext } from "@rpcpulse/services/context";

/** Shared arrangement for the advisor integration tests: organizations, nodes, real samples. */

export const STEP_MS = 10_000;

export function ctxOf(organizationId: string, role: ServiceContext["role"] = "owner"): ServiceContext {
  return { userId: `user-${organizationId}-${role}`, organizationId, organizationSlug: organizationId, role };
}

export async function createNode(db: TestDatabase, organizationId: string, name: string): Promise<string> {
  const node = await createTestNode(db, {
    organizationId,
    clientVersion: "1.27.11",
    name,
    publicUrl: "https://rpc.example.org",
  });
  return node.id;
}

/** Deterministic noise in [-1, 1) (no Math.random: the tests must be reproducible). */
export function noise(i: number): number {
  const x = Math.sin(i * 12.9898 + 78.233) * 43758.5453;
  return (x - Math.floor(x)) * 2 - 1;
}

/**
 * Samples every STEP_MS over [from, to) with a busiest remote IP holding `flood(i)` connections and
 * ten ordinary clients holding 1-3 each. Real rows in node_samples and node_remote_ips.
 */
export async function insertTraffic(
  db: TestDatabase,
  nodeId: string,
  from: Date,
  to: Date,
  flood: (i: number) => number,
  extra: Partial<NodeSampleInput> = {},
): Promise<number> {
  const samples: NodeSampleInput[] = [];
  const ips: { time: Date; nodeId: string; ip: string; conns: number }[] = [];
  let i = 0;
  for (let t = from.getTime(); t < to.getTime(); t += STEP_MS, i++) {
    const time = new Date(t);
    const top = Math.max(0, Math.round(flood(i)));
    samples.push({ time, nodeId, tcpEstablished: top + 20, totalMs: 12 + noise(i), peers: 20, ...extra });
    if (top > 0) ips.push({ time, nodeId, ip: "10.9.9.9", conns: top });
    for (let k = 0; k < 10; k++) ips.push({ time, nodeId, ip: `192.0.2.${k + 1}`, conns: 1 + ((i + k) % 3) });
  }
  await insertNodeSamples(db.sql, samples);
  await insertRemoteIps(db.sql, ips);
  return samples.length;
}

/** A wire sample at `at` with every group absent except `parts`. */
export function wireSample(at: number, parts: Partial<AgentSample> = {}): AgentSample {
  return {
    collectedAt: new Date(at).toISOString(),
    tcp: null,
    sockstat: null,
    netstat: null,
    conntrack: null,
    fds: null,
    host: null,
    disks: [],
    settings: null,
    chain: null,
    remoteIps: null,
    outbound: null,
    self: null,
    errors: [],
    ...parts,
  };
}

/** A wire batch of `samples`, sent when the last one was collected. */
export function wireBatch(seq: number, samples: AgentSample[]): AgentBatch {
  return {
    wireVersion: 1,
    agent: { version: "0.1.0", hostname: "h" },
    batchSeq: seq,
    sentAt: samples.at(-1)!.collectedAt,
    samples,
  } as AgentBatch;
}
