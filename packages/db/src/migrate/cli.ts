/**
 * CLI entry of @rpcpulse/db (the one place that reads the process environment):
 *   migrate   create the database if missing, apply migrations, seed the chain catalogue
 *   diff      regenerate prisma/migrations/0001_init/migration.sql from prisma/schema
 *   check     prove prisma/schema and the SQL migrations agree (exit 1 with a diff when not)
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { createLogger, loadEnvOrExit } from "@rpcpulse/config";
import pg from "pg";
import { createPrismaClient } from "../sql/client.js";
import { seedCatalog } from "../platform/seed-catalog.js";
import { seedPublicEndpoints } from "../directory/seed-public-endpoints.js";
import { checkSchemaAgreement } from "./check-schema.js";
import { ensureDatabase, parseDatabaseUrl } from "./ensure-database.js";
import { migrateEnvShape } from "./migrate-env.js";
import { renderPrismaSchemaSql, REPO_DIR } from "./prisma-diff.js";
import { runMigrations } from "./run-migrations.js";

const command = process.argv[2] ?? "migrate";
const env = loadEnvOrExit(migrateEnvShape, `rpcpulse-db ${command}`);
const log = createLogger({ name: "db", level: env.LOG_LEVEL, format: env.LOG_FORMAT });

async function migrate(): Promise<void> {
  const { database } = parseDatabaseUrl(env.DATABASE_URL);
  if (await ensureDatabase(env.DATABASE_URL)) log.info({ database }, `created database ${database}`);
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    const report = await runMigrations(client, {
      mode: env.STORAGE_MODE,
      dir: env.MIGRATIONS_DIR,
      log: (message, fields) => log.info(fields ?? {}, message),
    });
    const prisma = createPrismaClient(env.DATABASE_URL);
    try {
      const seeded = await seedCatalog(prisma);
      log.info(seeded, `catalogue seeded: ${seeded.chains} chains, ${seeded.networks} networks`);
      log.info(await seedPublicEndpoints(client), "public endpoint seed list applied");
    } finally {
      await prisma.$disconnect();
    }
    log.info(
      { mode: report.mode, applied: report.applied.length },
      `migrate done (${report.mode} mode, ${report.applied.length} applied)`,
    );
  } finally {
    await client.end();
  }
}

async function diff(): Promise<void> {
  const target = resolve(REPO_DIR, "prisma/migrations/0001_init/migration.sql");
  writeFileSync(target, renderPrismaSchemaSql(env.DATABASE_URL));
  log.info({ file: target }, "wrote prisma/migrations/0001_init/migration.sql");
}

async function check(): Promise<void> {
  const result = await checkSchemaAgreement({ serverUrl: env.DATABASE_URL });
  if (result.differences.length === 0) {
    log.info(
      { relations: result.relations },
      `schema check passed: ${result.relations} Prisma relations agree with the migrations`,
    );
    return;
  }
  process.stderr.write(
    `schema check FAILED: prisma/schema and prisma/migrations disagree\n${result.differences.join("\n")}\n`,
  );
  process.stderr.write("Fix: npm run db:diff -w @rpcpulse/db (regenerates 0001_init), or add a migration.\n");
  process.exitCode = 1;
}

const commands: Record<string, () => Promise<void>> = { migrate, diff, check };
const run = commands[command];
if (!run) {
  process.stderr.write(`unknown command ${command}; use migrate | diff | check\n`);
  process.exit(2);
}
run().catch((error: unknown) => {
  log.error({ err: error }, error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
