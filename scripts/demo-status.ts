// Demo only: a public status page of the demo organization (its nodes + a few directory
// endpoints) at /status/demo. Runs after demo-fleet.ts and demo-directory.ts.
//   node_modules/.bin/tsx scripts/demo-status.ts
import { databaseEnv, parseEnv, runtimeEnv } from "@rpcpulse/config";
import { createPrismaClient } from "@rpcpulse/db/sql";
import { seedDemoStatusPage } from "@rpcpulse/services/status";

async function main(): Promise<void> {
  const env = parseEnv({ ...databaseEnv, ...runtimeEnv }, process.env);
  if (!env.DEMO_MODE) throw new Error("DEMO_MODE is not on: the demo status page is only seeded in demo mode.");
  const prisma = createPrismaClient(env.DATABASE_URL);
  try {
    const { slug, components } = await seedDemoStatusPage({ prisma }, { organizationSlug: "demo-fleet" });
    process.stderr.write(`status page: /status/${slug} (${components} components)\n`);
  } finally {
    await prisma.$disconnect();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo-status: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
