#!/usr/bin/env node
// Runs test suites one after another, streams their output, and keeps a tally of passed/failed tests
// in var/test-tally.json so scripts/test.sh can print one closing line for the whole run.
//
//   node scripts/run-suites.mjs workspaces          every workspace with a "test" script, except e2e
//   node scripts/run-suites.mjs e2e                 the Playwright suite (app must be running)
//   node scripts/run-suites.mjs summary             print "tests: N passed, N failed" and exit 1 on failures
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const tallyFile = path.join(root, "var", "test-tally.json");

function readTally() {
  return existsSync(tallyFile) ? JSON.parse(readFileSync(tallyFile, "utf8")) : { suites: [] };
}

function writeTally(tally) {
  mkdirSync(path.dirname(tallyFile), { recursive: true });
  writeFileSync(tallyFile, JSON.stringify(tally, null, 2));
}

/** node:test TAP/spec closing lines and Playwright's list reporter lines. */
function countResults(output) {
  const num = (re) => {
    let total = 0;
    let seen = false;
    for (const m of output.matchAll(re)) {
      total += Number(m[1]);
      seen = true;
    }
    return seen ? total : null;
  };
  const passed = num(/^# pass (\d+)$/gm) ?? num(/^ℹ pass (\d+)$/gm) ?? num(/^\s+(\d+) passed\b/gm) ?? 0;
  const failed = num(/^# fail (\d+)$/gm) ?? num(/^ℹ fail (\d+)$/gm) ?? num(/^\s+(\d+) failed\b/gm) ?? 0;
  const skipped = num(/^# skipped (\d+)$/gm) ?? num(/^ℹ skipped (\d+)$/gm) ?? num(/^\s+(\d+) skipped\b/gm) ?? 0;
  return { passed, failed, skipped };
}

function runSuite(name, command, args, cwd) {
  return new Promise((resolve) => {
    const started = Date.now();
    process.stderr.write(`\n\x1b[1m==> suite ${name}\x1b[0m\n`);
    const child = spawn(command, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: "0" },
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on("data", (d) => {
      output += d;
      process.stderr.write(d);
    });
    child.on("close", (code) => {
      const counts = countResults(output);
      // A suite that crashed before reporting still counts as a failure.
      if (code !== 0 && counts.failed === 0) counts.failed = 1;
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      process.stderr.write(
        `    ${name}: ${counts.passed} passed, ${counts.failed} failed (${seconds}s, exit ${code})\n`,
      );
      resolve({ name, exitCode: code, seconds, ...counts });
    });
  });
}

function listWorkspaces() {
  const rootPkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const dirs = [];
  for (const pattern of rootPkg.workspaces) {
    const base = pattern.replace(/\/\*$/, "");
    const abs = path.join(root, base);
    if (pattern.endsWith("/*")) {
      for (const entry of readdirSafe(abs)) dirs.push(path.join(base, entry));
    } else dirs.push(base);
  }
  return dirs.filter((d) => {
    const file = path.join(root, d, "package.json");
    if (!existsSync(file)) return false;
    const pkg = JSON.parse(readFileSync(file, "utf8"));
    return Boolean(pkg.scripts?.test) && d !== "e2e";
  });
}

function readdirSafe(dir) {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

const mode = process.argv[2];
const only = process.argv.slice(3);
if (mode === "workspaces") {
  const tally = readTally();
  for (const dir of listWorkspaces()) {
    if (only.length && !only.some((o) => dir.includes(o))) continue;
    tally.suites.push(await runSuite(dir, "npm", ["test", "--silent"], path.join(root, dir)));
    writeTally(tally);
  }
} else if (mode === "e2e") {
  const tally = readTally();
  // E2E_GREP narrows the run to matching tests (e.g. E2E_GREP=alerting bash scripts/e2e.sh).
  const grep = process.env.E2E_GREP ? ["--grep", process.env.E2E_GREP] : [];
  tally.suites.push(
    await runSuite("e2e", "npx", ["playwright", "test", "--reporter=list", ...grep], path.join(root, "e2e")),
  );
  writeTally(tally);
} else if (mode === "reset") {
  writeTally({ suites: [] });
} else if (mode === "summary") {
  const tally = readTally();
  const sum = (k) => tally.suites.reduce((a, s) => a + s[k], 0);
  for (const s of tally.suites) {
    process.stdout.write(
      `  ${s.name.padEnd(20)} ${String(s.passed).padStart(4)} passed ${String(s.failed).padStart(3)} failed ${String(s.skipped).padStart(3)} skipped  ${s.seconds}s\n`,
    );
  }
  const failed = sum("failed");
  process.stdout.write(`tests: ${sum("passed")} passed, ${failed} failed, ${sum("skipped")} skipped\n`);
  process.exit(failed > 0 || tally.suites.length === 0 ? 1 : 0);
} else {
  process.stderr.write("usage: run-suites.mjs workspaces [filter...] | e2e | reset | summary\n");
  process.exit(2);
}
