// Demo only: seeds alert rules and a signed webhook channel for the demo organization, pointing at
// the local receiver (scripts/demo-webhook-receiver.ts); writes the signing secret (shown once) to
// --secret-file for the receiver to verify with. The worker needs NOTIFY_ALLOW_PRIVATE=true.
//   node_modules/.bin/tsx scripts/demo-alerts.ts --webhook-url http://127.0.0.1:3005/alerts
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { databaseEnv, parseEnv, runtimeEnv, secretsEnv } from "@rpcpulse/config";
import { readFileSync } from "node:fs";
import { createPrismaClient, createSqlPool } from "@rpcpulse/db/sql";
import { resolveSecretsKey, seedDemoAlerts } from "@rpcpulse/services/alerting";
import { seedDemoProducers } from "@rpcpulse/services/producers";
import { seedDemoStatusProducers } from "@rpcpulse/services/status";

async function main(): Promise<void> {
  const env = parseEnv({ ...databaseEnv, ...runtimeEnv, ...secretsEnv }, process.env);
  if (!env.DEMO_MODE) throw new Error("DEMO_MODE is not on: demo alerts are only seeded in demo mode.");
  const { values } = parseArgs({
    options: {
      "webhook-url": { type: "string", default: "http://127.0.0.1:3005/alerts" },
      "secret-file": { type: "string", default: "var/demo/webhook-secret" },
      org: { type: "string", default: "demo-fleet" },
      simnet: { type: "string", default: "packages/simnet/demo.json" },
    },
  });
  const prisma = createPrismaClient(env.DATABASE_URL);
  try {
    const seeded = await seedDemoAlerts(
      { prisma, secretsKey: resolveSecretsKey(env).key },
      { organizationSlug: values.org, webhookUrl: values["webhook-url"] },
    );
    if (seeded.signingSecret) {
      mkdirSync(path.dirname(values["secret-file"]), { recursive: true });
      writeFileSync(values["secret-file"], `${seeded.signingSecret}\n`, { mode: 0o600 });
    }
    // The witnesses simnet's demo config puts in trouble, and a healthy one on each network.
    const demo = JSON.parse(readFileSync(values.simnet, "utf8")) as {
      witnesses?: { network: string; account: string }[];
      validators?: { network: string; address: string }[];
    };
    const witnesses = [
      ...(demo.witnesses ?? []).map((w) => ({ network: w.network, account: w.account })),
      { network: "hive", account: "gtg" },
      { network: "steem", account: "justyy" },
      // The validators simnet's demo config lists: one offline (in trouble), one healthy.
      ...(demo.validators ?? []).map((v) => ({ network: v.network, account: v.address })),
    ];
    const sql = createSqlPool(env.DATABASE_URL);
    try {
      const producers = await seedDemoProducers({ prisma, sql }, { organizationSlug: values.org, witnesses });
      process.stderr.write(`producers: ${producers.join(", ")}\n`);
      const listed = await seedDemoStatusProducers({ prisma, sql }, { organizationSlug: values.org });
      process.stderr.write(`status page /status/demo: ${listed} producer component(s) added\n`);
    } finally {
      await sql.end();
    }
    process.stderr.write(
      `alerts: rules ${seeded.rules.join(", ") || "(already there)"}; channel ${seeded.channels.join(", ") || "(already there)"}\n`,
    );
  } finally {
    await prisma.$disconnect();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo-alerts: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
