import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const REPO_DIR = resolve(PACKAGE_DIR, "../..");
export const DEFAULT_SCHEMA_DIR = resolve(REPO_DIR, "prisma/schema");

export const GENERATED_HEADER =
  "-- Generated from prisma/schema by `npm run db:diff -w @rpcpulse/db` (prisma migrate diff --from-empty).\n" +
  "-- Do not edit by hand: change the .prisma files and regenerate; `npm run db:check` proves they agree.\n\n";

/**
 * The SQL Prisma would run to create `schemaDir` on an empty database, through the
 * WebAssembly schema engine (`engine: 'js'`, see prisma-diff.config.ts). The native engines
 * are never downloaded: their env variables point at /bin/true, which this command never runs.
 * `databaseUrl` names the server the engine connects to (the CLI never writes to it). The
 * child gets a minimal environment of its own, built here.
 */
export function renderPrismaSchemaSql(databaseUrl: string, schemaDir = DEFAULT_SCHEMA_DIR): string {
  const prismaCli = createRequire(import.meta.url).resolve("prisma/build/index.js");
  const output = execFileSync(
    process.execPath,
    [
      prismaCli,
      "migrate",
      "diff",
      "--config",
      resolve(PACKAGE_DIR, "prisma-diff.config.ts"),
      "--from-empty",
      "--to-schema-datamodel",
      schemaDir,
      "--script",
    ],
    {
      cwd: PACKAGE_DIR,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        DATABASE_URL: databaseUrl,
        PRISMA_QUERY_ENGINE_LIBRARY: "/bin/true",
        PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true",
        CHECKPOINT_DISABLE: "1",
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
      },
    },
  );
  if (!/CREATE TABLE/.test(output)) throw new Error(`prisma migrate diff produced no tables:\n${output}`);
  return GENERATED_HEADER + output.trimEnd() + "\n";
}
