// Demo only: enrols simnet's demo nodes in the demo organization and writes one agent config and
// token file per node under var/demo/agents/<name>/, for scripts/demo.sh to start the agents with.
//   tsx scripts/demo-fleet.ts --simnet packages/simnet/demo.json --ingest-url http://127.0.0.1:3003/v1/ingest
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { databaseEnv, parseEnv, runtimeEnv } from "@rpcpulse/config";
import { createPrismaClient, createSqlPool } from "@rpcpulse/db/sql";
import { seedDemoFleet } from "@rpcpulse/services/fleet";

const DEMO_ORG_SLUG = "demo-fleet";

async function main(): Promise<void> {
  const env = parseEnv({ ...databaseEnv, ...runtimeEnv }, process.env);
  if (!env.DEMO_MODE) throw new Error("DEMO_MODE is not on: the demo fleet is only seeded in demo mode.");
  const { values } = parseArgs({
    options: {
      simnet: { type: "string", default: "packages/simnet/demo.json" },
      "ingest-url": { type: "string", default: "http://127.0.0.1:3003/v1/ingest" },
      out: { type: "string", default: "var/demo/agents" },
      interval: { type: "string", default: "10s" },
      "wait-seconds": { type: "string", default: "90" },
    },
  });
  const simnet = z
    .object({ nodes: z.array(z.record(z.string(), z.unknown())) })
    .parse(JSON.parse(readFileSync(values.simnet, "utf8")));
  const prisma = createPrismaClient(env.DATABASE_URL);
  const pool = createSqlPool(env.DATABASE_URL, { max: 2 });
  try {
    // The web app creates the demo account and organization at start; wait for it.
    const deadline = Date.now() + Number(values["wait-seconds"]) * 1000;
    for (;;) {
      try {
        const agents = await seedDemoFleet(
          { prisma, sql: pool },
          { organizationSlug: DEMO_ORG_SLUG, nodes: simnet.nodes },
        );
        for (const agent of agents) {
          const dir = path.resolve(values.out, agent.name);
          mkdirSync(path.join(dir, "state"), { recursive: true });
          writeFileSync(path.join(dir, "token"), `${agent.token}\n`, { mode: 0o600 });
          const config = {
            family: agent.family,
            rpcUrl: agent.rpcUrl,
            ...(agent.beaconUrl ? { beaconUrl: agent.beaconUrl } : {}),
            interval: values.interval,
            ports: [agent.port],
            nodeId: agent.nodeId,
            stateDir: path.join(dir, "state"),
            ingestUrl: values["ingest-url"],
            tokenFile: path.join(dir, "token"),
          };
          writeFileSync(path.join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
          process.stdout.write(`${agent.name}\t${agent.enrolled ? "enrolled" : "token rotated"}\t${dir}/config.json\n`);
        }
        return;
      } catch (error) {
        const notYet = error instanceof Error && /does not exist/.test(error.message);
        if (!notYet || Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  } finally {
    await prisma.$disconnect();
    await pool.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo-fleet: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
