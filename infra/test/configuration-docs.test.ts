/**
 * docs/configuration.md and the generated block of .env.example are exactly what
 * `npm run docs:config` renders from the apps' zod env schemas now: a variable added, removed or
 * changed in a schema without re-running the command fails here.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { z } from "zod";
import { describeVariable } from "../config-docs/describe-schema.js";
import { DOC_FILE, ENV_EXAMPLE_FILE, collectServerRows, renderConfigurationDocs } from "../config-docs/generate.js";

test("the committed configuration reference and .env.example block match the schemas (npm run docs:config)", async () => {
  const envExample = readFileSync(ENV_EXAMPLE_FILE, "utf8");
  const generated = await renderConfigurationDocs(envExample);
  assert.equal(
    readFileSync(DOC_FILE, "utf8"),
    generated.markdown,
    "docs/configuration.md is stale: npm run docs:config",
  );
  assert.equal(envExample, generated.envExample, ".env.example's generated block is stale: npm run docs:config");
});

test("the reference lists the variables that were missing from README and .env.example", () => {
  const rows = new Map(collectServerRows().map((r) => [r.name, r]));
  for (const name of [
    "PROBE_ALLOW_PRIVATE",
    "PROBE_ONLY_PRIVATE",
    "PROBE_INTERVAL_MS",
    "WORKER_ROLE",
    "WORKER_REGISTER_SCHEDULES",
    "INGEST_PUBLIC_URL",
    "TRUSTED_PROXIES",
    "MIGRATIONS_DIR",
  ]) {
    assert.ok(rows.has(name), `${name} is missing`);
  }
  assert.deepEqual(rows.get("TRUSTED_PROXIES")?.apps, ["web", "ingest"]);
  assert.deepEqual(rows.get("DATABASE_URL")?.apps, ["web", "worker", "ingest", "migrate"]);
  const docs = readFileSync(DOC_FILE, "utf8");
  assert.match(
    docs,
    /\| `WORKER_REGISTER_SCHEDULES` +\| worker +\| boolean +\| `true` +\| no +\| Register the recurring jobs/,
  );
});

test("a regenerated .env.example keeps the hand-written part and replaces only its block", async () => {
  const envExample = readFileSync(ENV_EXAMPLE_FILE, "utf8");
  const tampered = envExample.replace(/^# WORKER_ROLE=.*$/m, "# WORKER_ROLE=something-else");
  assert.notEqual(tampered, envExample);
  assert.equal((await renderConfigurationDocs(tampered)).envExample, envExample);
  const handEdited = envExample.replace("POSTGRES_USER=rpcpulse", "POSTGRES_USER=owner");
  assert.match((await renderConfigurationDocs(handEdited)).envExample, /^POSTGRES_USER=owner$/m);
});

test("types, defaults and requiredness are read through defaults, optionals, preprocess and transforms", () => {
  const flag = z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .describe("A flag.")
    .transform((v) => v === "true");
  assert.deepEqual(describeVariable(flag), {
    type: "boolean",
    defaultValue: "false",
    required: false,
    description: "A flag.",
  });
  assert.deepEqual(describeVariable(z.coerce.number().int().min(1).max(256).default(32)), {
    type: "integer 1–256",
    defaultValue: "32",
    required: false,
    description: undefined,
  });
  const smtp = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional().describe("Relay."));
  assert.deepEqual(describeVariable(smtp), {
    type: "string",
    defaultValue: undefined,
    required: false,
    description: "Relay.",
  });
  assert.equal(describeVariable(z.url()).required, true);
  assert.equal(describeVariable(z.url()).type, "URL");
  assert.equal(describeVariable(z.enum(["auto", "plain"]).default("auto")).type, "`auto` | `plain`");
});
