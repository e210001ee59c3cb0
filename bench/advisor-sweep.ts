/**
 * Advisor sweep benchmark (not part of the test suite).
 *
 *   npx tsx bench/advisor-sweep.ts [--nodes 100] [--ips 10] [--rounds 3]
 *
 * A fresh database with --nodes nodes, each with a production-sized window (30 min of 10 s samples,
 * --ips remote IPs per sample; every 5th node flooded by one IP). Interleaves, --rounds times:
 *   reference: loadAdvisorWindow() for every node (reading the window the evaluation needs);
 *   sweep:     runAdvisorSweep() over every node (read + settings + rules + plan + one transaction each).
 * Prints medians, the ratio sweep / reference and the nodes one 60 s sweep interval covers on one core.
 */
import { parseArgs } from "node:util";
import { getAdvisorNode, loadAdvisorWindow } from "@rpcpulse/db/advisor";
import { insertNodeSamples, insertRemoteIps, type NodeSampleInput } from "@rpcpulse/db/fleet";
import { createTestDatabase, createTestNode, createTestOrg } from "../packages/db/src/testing.js";
import { runAdvisorSweep } from "@rpcpulse/services/advisor";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "100" },
    ips: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
  },
});
const NODES = Number(values.nodes);
const IPS = Number(values.ips);
const ROUNDS = Number(values.rounds);
const WINDOW_MIN = 30;
const STEP = 10_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const db = await createTestDatabase();
  try {
    await createTestOrg(db, { id: "bench-org", name: "bench" });
    const now = Date.now();
    const ids: string[] = [];
    for (let n = 0; n < NODES; n++) {
      const node = await createTestNode(db, { organizationId: "bench-org", name: `n${n}` });
      ids.push(node.id);
      const samples: NodeSampleInput[] = [];
      const ips: { time: Date; nodeId: string; ip: string; conns: number }[] = [];
      for (let t = now - WINDOW_MIN * 60_000, i = 0; t < now; t += STEP, i++) {
        const time = new Date(t);
        samples.push({
          time,
          nodeId: node.id,
          tcpEstablished: 40 + (i % 9),
          timeWaitIn: 300 + (i % 50),
          timeWaitOut: 20,
          totalMs: 15 + (i % 7),
          peers: 20,
          distinctRemoteIps: IPS,
        });
        for (let k = 0; k < IPS; k++)
          ips.push({
            time,
            nodeId: node.id,
            ip: `10.${n % 250}.${k}.${(i % 3) + 1}`,
            conns: k === 0 && n % 5 === 0 ? 160 : 1 + ((i + k) % 4),
          });
      }
      await insertNodeSamples(db.sql, samples);
      await insertRemoteIps(db.sql, ips);
    }
    process.stderr.write(`arranged ${NODES} nodes × ${(WINDOW_MIN * 60_000) / STEP} samples × ${IPS} IPs\n`);

    const reference: number[] = [];
    const sweep: number[] = [];
    let opened = 0;
    for (let r = 0; r < ROUNDS; r++) {
      let started = performance.now();
      for (const id of ids) {
        const node = await getAdvisorNode(db.sql, id);
        await loadAdvisorWindow(db.sql, {
          nodeId: id,
          from: new Date(now - WINDOW_MIN * 60_000),
          to: new Date(node!.latestSampleAt.getTime() + 1),
        });
      }
      reference.push(performance.now() - started);
      // Every round re-evaluates every node (the cursors are reset so none is skipped).
      await db.sql.query("DELETE FROM advisor_node_cursors");
      started = performance.now();
      const report = await runAdvisorSweep(
        { prisma: db.prisma, sql: db.sql },
        { now: new Date(now + 1) },
        { batchSize: NODES, verifyBatchSize: 100, windowMinutes: WINDOW_MIN, clearAfterMinutes: 30 },
      );
      sweep.push(performance.now() - started);
      opened += report.opened;
      if (report.evaluated !== NODES) throw new Error(`evaluated ${report.evaluated} of ${NODES}`);
    }
    const ref = median(reference);
    const full = median(sweep);
    const perNode = full / NODES;
    console.log(
      JSON.stringify(
        {
          nodes: NODES,
          ipsPerSample: IPS,
          samplesPerWindow: (WINDOW_MIN * 60_000) / STEP,
          referenceMs: Math.round(ref),
          sweepMs: Math.round(full),
          ratio: Number((full / ref).toFixed(2)),
          msPerNode: Number(perNode.toFixed(1)),
          nodesPer60sSweep: Math.floor(60_000 / perNode),
          suggestionsOpened: opened,
        },
        null,
        2,
      ),
    );
  } finally {
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
