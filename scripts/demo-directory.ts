// Lists the simnet demo nodes (packages/simnet/demo.json) in the public endpoint directory, each
// named with its configured qualities, on probation until the worker's probes promote it.
// Demo mode only; the worker must run with PROBE_ALLOW_PRIVATE=true to probe loopback.
//   node_modules/.bin/tsx scripts/demo-directory.ts --simnet packages/simnet/demo.json
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { databaseEnv, parseEnv, runtimeEnv } from "@rpcpulse/config";
import { createSqlPool } from "@rpcpulse/db/sql";
import { seedDemoDirectory } from "@rpcpulse/services/directory";

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { simnet: { type: "string", default: "packages/simnet/demo.json" } } });
  const env = parseEnv({ ...databaseEnv, ...runtimeEnv }, process.env);
  if (!env.DEMO_MODE) throw new Error("DEMO_MODE is not on: the demo directory is only seeded in demo mode.");
  const config = z.object({ nodes: z.array(z.unknown()) }).parse(JSON.parse(readFileSync(values.simnet, "utf8")));
  const pool = createSqlPool(env.DATABASE_URL, { max: 2 });
  try {
    for (const e of await seedDemoDirectory({ sql: pool }, { nodes: config.nodes }))
      process.stderr.write(`directory: ${e.name} ${e.url} (${e.qualities})\n`);
  } finally {
    await pool.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo-directory: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
