// The lint rules fire: deliberate violations fail them and their controls pass. Run by `npm test`
// (scripts/test.sh) right after `npm run lint`'s own checks.
//  - dependency-cruiser (.dependency-cruiser.cjs) cruises scripts/lint-fixtures/boundaries, a tiny copy of
//    the repository layout: pg, pg-*, Prisma, PGlite and the generated client only in packages/db, and
//    the older rules (no cycles, no upward imports) still fire now that node_modules is not excluded.
//  - issue 15's domain rules: services/<d> reaches db/<d> and db's sql entry, web features/<d> its own domain,
//    each with a short documented cross-domain list (services-domain-reaches-own-db-domain,
//    services-root-reaches-orgs, web-feature-reaches-own-domain).
//  - eslint (eslint.config.mjs) lints text under made-up paths: the file-size cap and its allow-list,
//    and Prisma queries outside packages/db.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, it } from "node:test";
import { ESLint } from "eslint";
import { FILE_SIZE_ALLOW_LIST, MAX_LINES } from "../eslint.config.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const fixture = path.join(root, "scripts/lint-fixtures/boundaries");

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/**
 * Cruise the fixture with the repository's config: once as `npm run lint` does (its exit code is the
 * number of errors), once as JSON for the details.
 */
async function cruiseFixture(): Promise<{ exitCode: number; violations: Violation[] }> {
  const run = async (...extra: string[]) => {
    const bin = path.join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
    const args = [bin, "--config", path.join(root, ".dependency-cruiser.cjs"), ...extra, "apps", "packages"];
    try {
      const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: fixture, maxBuffer: 16 << 20 });
      return { exitCode: 0, stdout };
    } catch (error) {
      const failed = error as { code?: unknown; stdout?: string };
      if (typeof failed.code !== "number" || failed.stdout === undefined) throw error;
      return { exitCode: failed.code, stdout: failed.stdout };
    }
  };
  const [asLint, asJson] = await Promise.all([run(), run("--output-type", "json")]);
  return { exitCode: asLint.exitCode, violations: JSON.parse(asJson.stdout).summary.violations };
}

describe("dependency-cruiser rules fire on scripts/lint-fixtures/boundaries", () => {
  it("fails the cruise with exactly the planted violations; packages/db's own imports pass", async () => {
    const { exitCode, violations } = await cruiseFixture();
    assert.equal(exitCode, violations.length, "depcruise fails with one error per violation, as in npm run lint");
    // A cycle is reported once, from one of its members.
    const found = violations.map((v) => `${v.rule.name}: ${v.from}`).sort();
    assert.deepEqual(found, [
      "leaf-packages: packages/domain/src/reaches-up.ts",
      "no-app-imports: packages/fake/src/reaches-app.ts",
      "no-circular: packages/fake/src/cycle-a.ts",
      "no-unresolvable-own-imports: packages/fake/src/unresolved.ts",
      "services-domain-reaches-own-db-domain: packages/services/src/status/reaches-advisor-db.ts",
      "services-root-reaches-orgs: packages/services/src/root-reaches-fleet.ts",
      "sql-only-in-db: apps/fake/src/own-pool.ts",
      "sql-only-in-db: packages/fake/src/generated-client.ts",
      "sql-only-in-db: packages/fake/src/pg-companion.ts",
      "sql-only-in-db: packages/fake/src/pg-uninstalled.ts",
      "sql-only-in-db: packages/fake/src/prisma-client.ts",
      "sql-only-in-db: packages/fake/test/pglite-setup.ts",
      "web-feature-reaches-own-domain: apps/web/src/features/status/reaches-advisor-service.ts",
      "web-feature-reaches-own-domain: apps/web/src/features/status/reaches-fleet-feature.ts",
    ]);
    const targets = Object.fromEntries(
      violations.filter((v) => v.rule.name === "sql-only-in-db").map((v) => [v.from, v.to]),
    );
    assert.match(targets["apps/fake/src/own-pool.ts"] ?? "", /node_modules\/pg\//);
    assert.match(targets["packages/fake/src/pg-companion.ts"] ?? "", /node_modules\/pg-pool\//);
    assert.equal(targets["packages/fake/src/pg-uninstalled.ts"], "pg-cursor");
    assert.match(targets["packages/fake/src/prisma-client.ts"] ?? "", /node_modules\/@prisma\/client\//);
    assert.match(targets["packages/fake/test/pglite-setup.ts"] ?? "", /node_modules\/@unni-craftsman\/pglite\//);
    assert.equal(targets["packages/fake/src/generated-client.ts"], "packages/db/src/generated/client/index.js");
  });
});

const eslint = new ESLint({ cwd: root });

async function lintAs(filePath: string, text: string): Promise<{ ruleId: string | null; line: number }[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(root, filePath) });
  assert.ok(result, "eslint returned a result");
  return result.messages.filter((m) => m.severity === 2).map((m) => ({ ruleId: m.ruleId, line: m.line }));
}

/** `n` code lines, with a blank line and a comment line after each (neither counts). */
function codeLines(n: number): string {
  return Array.from({ length: n }, (_, i) => `export const v${i} = ${i};\n\n// note ${i}\n`).join("");
}

const tooLong = (messages: { ruleId: string | null }[]) => messages.filter((m) => m.ruleId === "max-lines");

describe("eslint: the file-size cap", () => {
  it(`errors on a source, test or bench file over ${MAX_LINES} code lines; blank and comment lines do not count`, async () => {
    for (const file of ["packages/fake/src/big.ts", "apps/fake/test/big.test.ts", "bench/fake-big.ts"]) {
      assert.equal(tooLong(await lintAs(file, codeLines(MAX_LINES))).length, 0, `${file}: ${MAX_LINES} lines pass`);
      assert.equal(tooLong(await lintAs(file, codeLines(MAX_LINES + 1))).length, 1, `${file}: one more fails`);
    }
  });

  it("an allow-listed file may reach its own ceiling, not one line more", async () => {
    for (const [file, { max }] of Object.entries(FILE_SIZE_ALLOW_LIST)) {
      assert.equal(tooLong(await lintAs(file, codeLines(max))).length, 0, `${file} at its ceiling`);
      assert.equal(tooLong(await lintAs(file, codeLines(max + 1))).length, 1, `${file} past its ceiling`);
    }
  });

  it("every allow-list entry is still over the cap and says why (else remove it)", async () => {
    for (const [file, { max, reason }] of Object.entries(FILE_SIZE_ALLOW_LIST)) {
      assert.ok(max > MAX_LINES && reason.length > 20, file);
      const text = await readFile(path.join(root, file), "utf8");
      const asOrdinary = tooLong(await lintAs(path.join(path.dirname(file), "not-allow-listed.ts"), text));
      assert.equal(asOrdinary.length, 1, `${file} is within ${MAX_LINES} lines now: take it off FILE_SIZE_ALLOW_LIST`);
    }
  });
});

describe("eslint: Prisma only in packages/db", () => {
  const query = [
    'import type { PrismaClient } from "@rpcpulse/db/sql";',
    "export async function listPages(deps: { prisma: PrismaClient }) {",
    "  return deps.prisma.statusPage.findMany();",
    "}",
    "export async function inOne(prisma: PrismaClient) {",
    "  await prisma.$transaction(async () => undefined);",
    "  await prisma.$disconnect();",
    "}",
    "",
  ].join("\n");

  it("errors on model calls and $transaction in services, apps and scripts; closing the client is fine", async () => {
    for (const file of ["packages/services/src/fake.ts", "apps/web/src/fake.ts", "scripts/fake.ts"]) {
      const found = (await lintAs(file, query)).filter((m) => m.ruleId === "no-restricted-syntax");
      assert.deepEqual(
        found.map((m) => m.line),
        [3, 6],
        file,
      );
    }
  });

  it("packages/db and tests may query Prisma", async () => {
    for (const file of ["packages/db/src/fake.ts", "packages/services/test/fake.int.test.ts"]) {
      assert.deepEqual(await lintAs(file, query), [], file);
    }
  });
});
