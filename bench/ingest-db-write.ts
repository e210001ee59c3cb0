/**
 * Ingest database write stage vs `psql \copy` (goal: ≥ 0.6×). Not part of the test suite.
 *
 *   npx tsx bench/ingest-db-write.ts [--nodes 200] [--batches 2] [--samples 250] [--ips 2] [--rounds 3] [--flushes 2]
 *
 * Two identical databases from the migrated template. The same rows (agent batches normalised the
 * way the ingest API queues them) are written, interleaved A/B per round:
 *   A  psql \copy of node_samples + node_remote_ips CSVs (reference);
 *   B  the worker's writer (createIngestWriter → binary COPY flushes of ≤ 5,000 samples, 2 in flight,
 *      plus node_latest and nodes.lastSeenAt), including its JS encoding.
 * Prints rows/s of each and the ratio; the median ratio is the figure.
 */
import { parseArgs } from "node:util";
import { createTestDatabase } from "@rpcpulse/db/testing";
import { createIngestWriter, normaliseAgentBatch, type IngestWriteJob } from "@rpcpulse/services/ingest";
import { makeAgentBatch } from "../apps/ingest/test/support/agent-batches.js";
import {
  median,
  psqlCopy,
  seedNodes,
  table,
  tempDir,
  truncateIngestTables,
  writeReferenceCsv,
} from "./ingest-support.js";

async function main() {
  const { values } = parseArgs({
    options: {
      nodes: { type: "string", default: "200" },
      batches: { type: "string", default: "2" },
      samples: { type: "string", default: "250" },
      ips: { type: "string", default: "2" },
      rounds: { type: "string", default: "3" },
      flushes: { type: "string", default: "2" },
    },
  });
  const nodesCount = Number(values.nodes);
  const perNode = Number(values.batches);
  const samplesPerBatch = Number(values.samples);
  const rounds = Number(values.rounds);

  const reference = await createTestDatabase();
  const ours = await createTestDatabase();
  try {
    const nodes = await seedNodes(ours, nodesCount);
    const networkId = (await ours.pool.query<{ id: string }>("SELECT id FROM networks WHERE slug = 'hive'")).rows[0]!
      .id;
    const start = Date.now() - perNode * samplesPerBatch * 10_000 - 60_000;
    const batches = nodes.flatMap((node) =>
      Array.from({ length: perNode }, (_, b) => ({
        nodeId: node.nodeId,
        batch: makeAgentBatch(b + 1, {
          samples: samplesPerBatch,
          remoteIps: Number(values.ips),
          start: new Date(start + b * samplesPerBatch * 10_000),
        }),
      })),
    );
    const receivedAtMs = Date.now();
    const jobs: IngestWriteJob[] = batches.map(({ nodeId, batch }) => ({
      nodeId,
      networkId,
      batchSeq: batch.batchSeq,
      receivedAtMs,
      clockSkewMs: 0,
      agentVersion: batch.agent.version,
      ...normaliseAgentBatch(batch),
    }));
    const dir = tempDir();
    const csv = writeReferenceCsv(dir, batches);
    const rows = csv.samples + csv.remoteIps;
    console.log(
      `dataset: ${csv.samples.toLocaleString()} node_samples rows + ${csv.remoteIps.toLocaleString()} node_remote_ips rows ` +
        `(${nodesCount} nodes × ${perNode} batches × ${samplesPerBatch} samples, ${values.ips} remote IPs each); ` +
        `writer: flushes of ≤ 5,000 samples, ${values.flushes} in flight`,
    );

    const runOurs = async () => {
      const writer = createIngestWriter(
        { pool: ours.pool },
        { maxSamples: 5_000, maxConcurrentFlushes: Number(values.flushes) },
      );
      const started = performance.now();
      await Promise.all(jobs.map((job) => writer.write(job)));
      const ms = performance.now() - started;
      await writer.close();
      const { rows: counted } = await ours.pool.query<{ n: string }>("SELECT count(*) AS n FROM node_samples");
      if (Number(counted[0]!.n) !== csv.samples) throw new Error(`stored ${counted[0]!.n} of ${csv.samples}`);
      return ms;
    };
    const runReference = async () => {
      const ms = psqlCopy(reference.url, csv);
      const { rows: counted } = await reference.pool.query<{ n: string }>("SELECT count(*) AS n FROM node_samples");
      if (Number(counted[0]!.n) !== csv.samples) throw new Error(`copied ${counted[0]!.n} of ${csv.samples}`);
      return ms;
    };

    // Warm-up (discarded): caches, prepared paths, JIT.
    await runReference();
    await runOurs();
    const out: (string | number)[][] = [["round", "psql \\copy rows/s", "writer rows/s", "writer samples/s", "ratio"]];
    const ratios: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      await truncateIngestTables(reference);
      await truncateIngestTables(ours);
      let refMs: number;
      let ourMs: number;
      if (round % 2) {
        refMs = await runReference();
        ourMs = await runOurs();
      } else {
        ourMs = await runOurs();
        refMs = await runReference();
      }
      const ratio = refMs / ourMs;
      ratios.push(ratio);
      out.push([
        String(round),
        Math.round(rows / (refMs / 1000)),
        Math.round(rows / (ourMs / 1000)),
        Math.round(csv.samples / (ourMs / 1000)),
        ratio,
      ]);
    }
    console.log(table(out));
    const m = median(ratios);
    console.log(`median ratio writer / psql \\copy = ${m.toFixed(2)} (goal ≥ 0.60): ${m >= 0.6 ? "met" : "MISSED"}`);
  } finally {
    await reference.drop();
    await ours.drop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
