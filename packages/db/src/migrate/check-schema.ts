import { randomBytes } from "node:crypto";
import pg from "pg";
import { z } from "zod";
import { parseDatabaseUrl, quoteIdent } from "./ensure-database.js";
import { renderPrismaSchemaSql } from "./prisma-diff.js";
import { runMigrations } from "./run-migrations.js";

export interface SchemaCheckResult {
  /** Tables and enums Prisma manages (compared). */
  relations: number;
  /** Human-readable differences; empty when schema and migrations agree. */
  differences: string[];
}

export interface CheckSchemaOptions {
  /** Any postgres:// URL on the server where the two scratch databases are created. */
  serverUrl: string;
  schemaDir?: string;
  migrationsDir?: string;
  /** SQL of `prisma migrate diff --from-empty`, when the caller already rendered it. */
  schemaSql?: string;
}

/**
 * Prove prisma/schema and prisma/migrations agree: database A is built by our runner from the
 * migrations, database B by running `prisma migrate diff --from-empty` on the schema. The
 * catalogues of every relation and enum in B (what Prisma manages) are compared with A: columns
 * (type, nullability, default), constraints (primary, unique, foreign keys with actions, checks)
 * and indexes. Extra relations in A (time series, bookkeeping) are not Prisma's and are ignored, and so
 * are foreign keys from a Prisma relation to one of them (Prisma cannot declare those).
 */
export async function checkSchemaAgreement(options: CheckSchemaOptions): Promise<SchemaCheckResult> {
  const schemaSql = options.schemaSql ?? renderPrismaSchemaSql(options.serverUrl, options.schemaDir);
  const { withDatabase } = parseDatabaseUrl(options.serverUrl);
  const suffix = randomBytes(5).toString("hex");
  const fromMigrations = `rpcpulse_check_migrations_${suffix}`;
  const fromSchema = `rpcpulse_check_schema_${suffix}`;
  const admin = new pg.Client({ connectionString: withDatabase("postgres") });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${quoteIdent(fromMigrations)}`);
    await admin.query(`CREATE DATABASE ${quoteIdent(fromSchema)}`);
    const a = new pg.Client({ connectionString: withDatabase(fromMigrations) });
    const b = new pg.Client({ connectionString: withDatabase(fromSchema) });
    await a.connect();
    await b.connect();
    try {
      await runMigrations(a, { mode: "plain", ...(options.migrationsDir ? { dir: options.migrationsDir } : {}) });
      await b.query(schemaSql);
      const expected = await readCatalog(b, null);
      const actual = await readCatalog(a, expected.relations);
      return { relations: expected.relations.length, differences: diffCatalogs(expected.facts, actual.facts) };
    } finally {
      await a.end();
      await b.end();
    }
  } finally {
    for (const name of [fromMigrations, fromSchema]) {
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`).catch(() => undefined);
    }
    await admin.end();
  }
}

const FactRow = z.object({ key: z.string(), value: z.string() });

/** Facts as key → description, for the given relations (or every one in `public` when null). */
async function readCatalog(
  client: pg.Client,
  only: string[] | null,
): Promise<{ relations: string[]; facts: Map<string, string> }> {
  const names =
    only ??
    (
      await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
       UNION ALL
       SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
       WHERE n.nspname = 'public' AND t.typtype = 'e'
       ORDER BY 1`,
      )
    ).rows.map((r) => r.name);
  const { rows } = await client.query(
    `WITH rels AS (
       SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname = ANY($1::text[]))
     SELECT 'table ' || relname AS key, 'exists' AS value FROM rels
     UNION ALL
     SELECT 'column ' || r.relname || '.' || a.attname,
            format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE ' NULL' END
            || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')
     FROM rels r JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
     LEFT JOIN pg_attrdef d ON d.adrelid = r.oid AND d.adnum = a.attnum
     UNION ALL
     SELECT 'constraint ' || r.relname || '.' || con.conname, pg_get_constraintdef(con.oid)
     FROM rels r JOIN pg_constraint con ON con.conrelid = r.oid
     -- A foreign key to a relation Prisma does not manage (raw-SQL tables such as producers) cannot
     -- be written in the schema: it is the migrations' alone and not compared.
     WHERE con.contype <> 'f' OR EXISTS (SELECT 1 FROM rels t WHERE t.oid = con.confrelid)
     UNION ALL
     SELECT 'index ' || r.relname || '.' || ic.relname, pg_get_indexdef(i.indexrelid)
     FROM rels r JOIN pg_index i ON i.indrelid = r.oid JOIN pg_class ic ON ic.oid = i.indexrelid
     UNION ALL
     SELECT 'enum ' || t.typname, string_agg(e.enumlabel, ', ' ORDER BY e.enumsortorder)
     FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace JOIN pg_enum e ON e.enumtypid = t.oid
     WHERE n.nspname = 'public' AND t.typname = ANY($1::text[])
     GROUP BY t.typname`,
    [names],
  );
  const facts = new Map(rows.map((r) => FactRow.parse(r)).map((r) => [r.key, r.value]));
  return { relations: names, facts };
}

export function diffCatalogs(expected: Map<string, string>, actual: Map<string, string>): string[] {
  const out: string[] = [];
  const keys = [...new Set([...expected.keys(), ...actual.keys()])].sort();
  for (const key of keys) {
    const want = expected.get(key);
    const got = actual.get(key);
    if (want === got) continue;
    if (got === undefined) out.push(`  missing in migrations:  ${key}: ${want}`);
    else if (want === undefined) out.push(`  not in prisma schema:   ${key}: ${got}`);
    else out.push(`  differs:                ${key}\n      schema:     ${want}\n      migrations: ${got}`);
  }
  return out;
}
