#!/usr/bin/env node
// Runs test suites one after another, streams their output, and keeps a tally of passed/failed tests
// in var/test-tally.json so scripts/test.sh can print one closing line for the whole run.
//
//   node scripts/run-suites.mjs reset [--fast]      start a tally; without --fast the e2e suite is expected
//   node scripts/run-suites.mjs workspaces          every workspace with a "test" script, except e2e
//   node scripts/run-suites.mjs e2e-started         scripts/e2e.sh began (before the build and the stack)
//   node scripts/run-suites.mjs e2e                 the Playwright suite (app must be running)
//   node scripts/run-suites.mjs e2e-exit <code>     scripts/e2e.sh ended with this exit code
//   node scripts/run-suites.mjs summary             print "tests: N passed, N failed, N skipped" and exit 1
//                                                   on failures, on an expected suite without results (a
//                                                   workspace that never reported, the e2e suite that never
//                                                   ran or ran no test), on a suite that reported fewer tests
//                                                   than scripts/test-counts.json holds, and on a failed
//                                                   scripts/e2e.sh
//   node scripts/run-suites.mjs record-counts       write the tally's per-suite test counts to
//                                                   scripts/test-counts.json (after adding or removing tests)
import { countResults } from "./count-results.mjs";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
// TEST_TALLY_FILE: another tally (checks of this script run on a scratch copy without touching var/).
const tallyFile = process.env.TEST_TALLY_FILE
  ? path.resolve(process.env.TEST_TALLY_FILE)
  : path.join(root, "var", "test-tally.json");

function readTally() {
  return existsSync(tallyFile) ? JSON.parse(readFileSync(tallyFile, "utf8")) : { suites: [] };
}

function writeTally(tally) {
  mkdirSync(path.dirname(tallyFile), { recursive: true });
  writeFileSync(tallyFile, JSON.stringify(tally, null, 2));
}

/** Time limit of one workspace suite (SUITE_TIME_LIMIT_S, default 30 min: the slowest suite takes about 6). */
const SUITE_TIME_LIMIT_S = Number(process.env.SUITE_TIME_LIMIT_S ?? 1800);

function runSuite(name, command, args, cwd) {
  return new Promise((resolve) => {
    const started = Date.now();
    process.stderr.write(`\n\x1b[1m==> suite ${name}\x1b[0m\n`);
    const child = spawn(command, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: "0" },
      // Its own process group, so a suite that hangs is stopped with everything it started.
      detached: true,
    });
    // A hung test must fail the run, not hold CI until its own time limit.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      process.stderr.write(`\n    ${name}: still running after ${SUITE_TIME_LIMIT_S} s: stopped\n`);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, SUITE_TIME_LIMIT_S * 1000);
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
      clearTimeout(timer);
      const counts = countResults(output);
      if (timedOut) counts.failed += 1;
      // A suite that crashed before reporting still counts as a failure.
      if (code !== 0 && counts.failed === 0) counts.failed = 1;
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      process.stderr.write(
        `    ${name}: ${counts.passed} passed, ${counts.failed} failed${counts.flaky ? `, ${counts.flaky} flaky` : ""} (${seconds}s, exit ${code})\n`,
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

// How many tests each suite has (its passed + failed + skipped on the last full run). A suite that reports
// fewer fails the run: a file that stopped early, a describe that never registered, or a reporter that lost
// lines would otherwise pass with a smaller count (as `--test-force-exit` did). Removing tests on purpose
// means lowering the count with `record-counts`, in the same commit.
// TEST_COUNTS_FILE: another file (the checks of this script use a scratch one).
const countsFile = process.env.TEST_COUNTS_FILE
  ? path.resolve(process.env.TEST_COUNTS_FILE)
  : path.join(root, "scripts", "test-counts.json");

function readCounts() {
  return existsSync(countsFile) ? JSON.parse(readFileSync(countsFile, "utf8")) : {};
}

/** A flaky test (failed, then passed on Playwright's retry) reported too: it is not a lost report. */
const reportedTests = (s) => s.passed + s.failed + s.skipped + (s.flaky ?? 0);
/** A narrowed e2e run (E2E_GREP) runs fewer tests on purpose: neither held to nor recorded as the count. */
const isNarrowed = (s, tally) => s.name === "e2e" && Boolean(tally.e2e?.grep);

function findShortSuites(tally, counts) {
  const problems = [];
  for (const s of tally.suites) {
    const expected = counts[s.name];
    if (expected === undefined || isNarrowed(s, tally)) continue;
    if (reportedTests(s) < expected) {
      problems.push(
        `${s.name}: reported ${reportedTests(s)} tests, fewer than the ${expected} in scripts/test-counts.json ` +
          "(a file stopped early or lost its report; if tests were removed on purpose: record-counts)",
      );
    }
  }
  return problems;
}

/** Problems that fail the run besides failed tests; each counts as one failure in the last line. */
function findMissingResults(tally) {
  const problems = findShortSuites(tally, readCounts());
  const byName = new Map(tally.suites.map((s) => [s.name, s]));
  for (const name of tally.expectedWorkspaces ?? []) {
    if (!byName.has(name)) problems.push(`${name}: no result (the suite runner stopped before it reported)`);
  }
  for (const s of tally.suites) {
    if (s.exitCode === 0 && s.passed === 0 && s.failed === 0) problems.push(`${s.name}: ran but reported no tests`);
  }
  if (!tally.fast) {
    const e2e = byName.get("e2e");
    const run = tally.e2e ?? {};
    if (!e2e) {
      problems.push(
        run.started
          ? `e2e: scripts/e2e.sh started but the Playwright suite never ran (build, Chromium or the stack failed; exit ${run.exitCode ?? "?"})`
          : "e2e: the suite was expected but scripts/e2e.sh never started",
      );
    } else if (run.exitCode !== undefined && run.exitCode !== 0 && e2e.failed === 0) {
      // Zero tests or a crash of Playwright are counted above and by runSuite; this is a script
      // that failed after a clean suite.
      problems.push(`e2e: scripts/e2e.sh exited ${run.exitCode} after the suite`);
    }
  }
  return problems;
}

const mode = process.argv[2];
const only = process.argv.slice(3);
if (mode === "workspaces") {
  const tally = readTally();
  const dirs = listWorkspaces().filter((dir) => !only.length || only.some((o) => dir.includes(o)));
  // Recorded first: a suite that never gets to report (this runner crashing) still fails the run.
  tally.expectedWorkspaces = [...new Set([...(tally.expectedWorkspaces ?? []), ...dirs])];
  writeTally(tally);
  for (const dir of dirs) {
    tally.suites.push(await runSuite(dir, "npm", ["test", "--silent"], path.join(root, dir)));
    writeTally(tally);
  }
} else if (mode === "e2e-started") {
  const tally = readTally();
  tally.e2e = { ...tally.e2e, started: true, startedAt: new Date().toISOString() };
  writeTally(tally);
} else if (mode === "e2e") {
  const tally = readTally();
  // E2E_GREP narrows the run to matching tests (e.g. E2E_GREP=alerting bash scripts/e2e.sh).
  const grep = process.env.E2E_GREP ? ["--grep", process.env.E2E_GREP] : [];
  tally.suites.push(
    await runSuite("e2e", "npx", ["playwright", "test", "--reporter=list", ...grep], path.join(root, "e2e")),
  );
  tally.e2e = { ...tally.e2e, finished: true, grep: Boolean(process.env.E2E_GREP) };
  writeTally(tally);
} else if (mode === "e2e-exit") {
  const tally = readTally();
  const code = Number(only[0]);
  tally.e2e = { ...tally.e2e, exitCode: Number.isInteger(code) ? code : 1 };
  writeTally(tally);
} else if (mode === "reset") {
  const fast = only.includes("--fast");
  writeTally({ suites: [], fast, expectedWorkspaces: [], e2e: { expected: !fast, started: false } });
} else if (mode === "summary") {
  const tally = readTally();
  const sum = (k) => tally.suites.reduce((a, s) => a + (s[k] ?? 0), 0);
  for (const s of tally.suites) {
    process.stdout.write(
      `  ${s.name.padEnd(20)} ${String(s.passed).padStart(4)} passed ${String(s.failed).padStart(3)} failed ${String(s.skipped).padStart(3)} skipped  ${s.seconds}s${s.flaky ? `  (${s.flaky} flaky: passed on retry)` : ""}\n`,
    );
  }
  const problems = findMissingResults(tally);
  for (const problem of problems) process.stdout.write(`  FAILED: ${problem}\n`);
  const failed = sum("failed") + problems.length;
  const note = tally.fast ? " (fast: build and e2e suite skipped)" : "";
  const flaky = sum("flaky") ? `, ${sum("flaky")} flaky (passed on retry)` : "";
  process.stdout.write(`tests: ${sum("passed")} passed, ${failed} failed, ${sum("skipped")} skipped${flaky}${note}\n`);
  process.exit(failed > 0 || tally.suites.length === 0 ? 1 : 0);
} else if (mode === "record-counts") {
  const tally = readTally();
  const counts = readCounts();
  for (const s of tally.suites) {
    if (s.failed > 0 || isNarrowed(s, tally)) {
      process.stderr.write(`${s.name}: not recorded (${s.failed > 0 ? "it has failures" : "a narrowed run"})\n`);
      continue;
    }
    if (counts[s.name] !== reportedTests(s))
      process.stdout.write(`${s.name}: ${counts[s.name] ?? "-"} -> ${reportedTests(s)}\n`);
    counts[s.name] = reportedTests(s);
  }
  const sorted = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(countsFile, JSON.stringify(sorted, null, 2) + "\n");
} else {
  process.stderr.write(
    "usage: run-suites.mjs reset [--fast] | workspaces [filter...] | e2e-started | e2e | e2e-exit <code> | summary | record-counts\n",
  );
  process.exit(2);
}
