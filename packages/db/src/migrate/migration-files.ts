import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { splitStatements } from "./split-statements.js";

export type StorageMode = "timescale" | "plain";

/**
 * Layout of `prisma/migrations/<NNNN_name>/`:
 *   migration.sql   applied in both storage modes (first)
 *   timescale.sql   applied only in TimescaleDB mode (after migration.sql)
 *   plain.sql       applied only in plain PostgreSQL mode (after migration.sql)
 * A folder may hold any of them. A file whose first line is `-- rpcpulse:no-transaction` makes
 * the whole migration run statement by statement outside a transaction (for DDL PostgreSQL or
 * TimescaleDB refuses inside one); such statements must be idempotent (IF NOT EXISTS ...).
 */
export const NO_TRANSACTION_DIRECTIVE = "-- rpcpulse:no-transaction";
const NAME_PATTERN = /^\d{4}_[a-z0-9_]+$/;

export interface PlannedMigration {
  name: string;
  /** Files used in this mode, in order (relative to the migration folder). */
  files: string[];
  statements: string[];
  transactional: boolean;
  /** sha256 over the used files' names and contents. */
  checksum: string;
}

/** Default migrations folder: `<repo>/prisma/migrations`. */
export function defaultMigrationsDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), "../../../../prisma/migrations");
}

export function loadMigrations(dir: string, mode: StorageMode): PlannedMigration[] {
  if (!existsSync(dir)) throw new Error(`migrations folder ${dir} does not exist`);
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const seen = new Set<string>();
  return names.map((name) => {
    if (!NAME_PATTERN.test(name)) throw new Error(`migration folder "${name}" must be named NNNN_lower_snake`);
    const prefix = name.slice(0, 4);
    if (seen.has(prefix)) throw new Error(`two migrations share the number ${prefix}`);
    seen.add(prefix);
    const files = ["migration.sql", `${mode}.sql`].filter((f) => existsSync(join(dir, name, f)));
    const hash = createHash("sha256");
    const statements: string[] = [];
    let transactional = true;
    for (const file of files) {
      const text = readFileSync(join(dir, name, file), "utf8");
      hash.update(`${file}\n${text}\n`);
      if (text.startsWith(NO_TRANSACTION_DIRECTIVE)) transactional = false;
      try {
        statements.push(...splitStatements(text));
      } catch (error) {
        throw new Error(`${name}/${file}: ${(error as Error).message}`);
      }
    }
    return { name, files, statements, transactional, checksum: hash.digest("hex") };
  });
}
