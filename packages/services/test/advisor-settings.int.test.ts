// The agent's settings and outbound destinations travel ingest → queue payload → worker flush →
// node_reported_settings, and come back as the advisor's input (real PostgreSQL).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getReportedSettings } from "@rpcpulse/db/advisor";
import { writeIngestFlush } from "@rpcpulse/db/ingest";
import { createTestDatabase, createTestOrg, type TestDatabase } from "@rpcpulse/db/testing";
import type { AgentSample } from "@rpcpulse/domain";
import { parsePayload } from "@rpcpulse/queue";
import { normaliseAgentBatch } from "@rpcpulse/services/ingest";
import { toAdvisorOutbound, toAdvisorSettings } from "@rpcpulse/services/advisor";
import { createNode, wireBatch, wireSample } from "./advisor-fixtures.js";

const ORG = "org-advisor-settings";

const sample = wireSample;

const kernel = {
  tcpTwReuse: 2,
  tcpFinTimeout: 60,
  somaxconn: 4096,
  tcpMaxSynBacklog: 1024,
  tcpMaxTwBuckets: 262_144,
  ipLocalPortRange: { low: 32_768, high: 60_999, size: 28_232 },
  tcpTwRecycleLines: [{ file: "/etc/sysctl.conf", line: 12, text: "net.ipv4.tcp_tw_recycle = 1" }],
};

const batch = wireBatch;

describe("reported settings for the advisor", () => {
  let db: TestDatabase;
  let nodeId: string;
  before(async () => {
    db = await createTestDatabase();
    await createTestOrg(db, { id: ORG });
    nodeId = await createNode(db, ORG, "settings-flow");
  });
  after(async () => {
    await db.drop();
  });

  async function ingest(seq: number, samples: AgentSample[], receivedAtMs: number) {
    const normalised = normaliseAgentBatch(batch(seq, samples));
    const job = parsePayload("ingest", {
      organizationId: ORG,
      nodeId,
      networkId: "00000000-0000-4000-8000-000000000000",
      batchSeq: seq,
      receivedAtMs,
      clockSkewMs: 0,
      agentVersion: "0.1.0",
      ...normalised,
    });
    await writeIngestFlush(db.pool, [{ ...job, lagBlocks: job.samples.time.map(() => null) }]);
  }

  test("newest report of each part is kept, older parts survive a partial report", async () => {
    const t0 = Date.now() - 60_000;
    await ingest(
      1,
      [
        sample(t0, { settings: { ...kernel, somaxconn: 128 } }),
        sample(t0 + 10_000, {
          settings: kernel,
          tcp: {
            states: {} as never,
            total: 0,
            ipv4: 0,
            ipv6: 0,
            timeWaitInbound: 0,
            timeWaitOutbound: 0,
            listeningPorts: [8091, 443],
            scanMs: 1,
          },
          disks: [
            {
              path: "/dev/shm",
              totalBytes: 8e9,
              freeBytes: 1e9,
              availableBytes: 1e9,
              inodesTotal: null,
              inodesFree: null,
              error: null,
            },
          ],
        }),
      ],
      t0 + 11_000,
    );
    let reported = await getReportedSettings(db.sql, nodeId);
    const settings = toAdvisorSettings(reported)!;
    assert.equal(settings.somaxconn, 4096, "the newest sample's value");
    assert.deepEqual(settings.ipLocalPortRange, { low: 32_768, high: 60_999 });
    assert.equal(settings.tcpTwRecycleLines?.[0]?.line, 12);
    assert.deepEqual(settings.listeningPorts, [8091, 443]);
    assert.equal(settings.shmTotalBytes, 8e9);

    // A later batch with only outbound destinations: kernel settings stay, outbound arrives.
    const t1 = t0 + 20_000;
    await ingest(
      2,
      [
        sample(t1, {
          outbound: {
            portRange: null,
            distinctDestinations: 1,
            totalSockets: 24_000,
            top: [
              { ip: "10.0.0.5", port: 8545, sockets: 24_000, established: 40, timeWait: 23_960, portRangeUsage: 0.85 },
            ],
          },
        }),
      ],
      t1 + 1_000,
    );
    reported = await getReportedSettings(db.sql, nodeId);
    assert.equal(toAdvisorSettings(reported)!.somaxconn, 4096);
    const outbound = toAdvisorOutbound(reported, { from: new Date(t1 - 60_000), to: new Date(t1 + 60_000) });
    assert.deepEqual(outbound, [
      { time: new Date(t1), ip: "10.0.0.5", port: 8545, sockets: 24_000, established: 40, timeWait: 23_960 },
    ]);
    // Outside the evaluation window it is not used.
    assert.deepEqual(toAdvisorOutbound(reported, { from: new Date(t1 + 1), to: new Date(t1 + 60_000) }), []);

    // An older batch replayed late never overwrites the newer report.
    await ingest(3, [sample(t0 - 50_000, { settings: { ...kernel, somaxconn: 1 } })], t0 - 49_000);
    assert.equal(toAdvisorSettings(await getReportedSettings(db.sql, nodeId))!.somaxconn, 4096);
  });
});
