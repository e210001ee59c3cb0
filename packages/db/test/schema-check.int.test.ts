import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { defaultMigrationsDir } from "@rpcpulse/db/migrate";
import { checkSchemaAgreement } from "../src/migrate/check-schema.js";
import { renderPrismaSchemaSql } from "../src/migrate/prisma-diff.js";
import { DEFAULT_TEST_SERVER_URL } from "../src/testing.js";

describe("schema check (prisma/schema vs prisma/migrations)", () => {
  // The prisma CLI is the slow part (about 10 s): render once, check twice.
  const schemaSql = renderPrismaSchemaSql(DEFAULT_TEST_SERVER_URL);

  test("the committed migrations agree with the schema", async () => {
    const result = await checkSchemaAgreement({ serverUrl: DEFAULT_TEST_SERVER_URL, schemaSql });
    assert.deepEqual(result.differences, []);
    assert.ok(result.relations >= 19, `compared ${result.relations} relations`);
  });

  test("drift is reported readably", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rpcpulse-drift-"));
    try {
      cpSync(defaultMigrationsDir(), dir, { recursive: true });
      mkdirSync(join(dir, "0099_drift"));
      writeFileSync(
        join(dir, "0099_drift", "migration.sql"),
        `DROP INDEX nodes_network_id_idx;
         ALTER TABLE nodes ALTER COLUMN region SET NOT NULL;
         ALTER TABLE agent_tokens ADD COLUMN note text;
         ALTER TYPE endpoint_status ADD VALUE 'paused';`,
      );
      const result = await checkSchemaAgreement({
        serverUrl: DEFAULT_TEST_SERVER_URL,
        schemaSql,
        migrationsDir: dir,
      });
      const text = result.differences.join("\n");
      assert.match(text, /missing in migrations:\s+index nodes\.nodes_network_id_idx/);
      assert.match(text, /differs:\s+column nodes\.region\n\s+schema:\s+text NULL\n\s+migrations: text NOT NULL/);
      assert.match(text, /not in prisma schema:\s+column agent_tokens\.note: text NULL/);
      assert.match(text, /differs:\s+enum endpoint_status/);
      assert.equal(result.differences.length, 4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
