// The test runner's own guarantees, on scratch files: a test file that leaves a handle open fails (named)
// instead of hanging its suite or being cut short, and a suite that reports fewer tests than
// scripts/test-counts.json holds fails the summary. Run by scripts/test.sh before the suites.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { after, describe, it } from "node:test";
import { countResults } from "./count-results.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const guard = pathToFileURL(path.join(root, "packages/config/src/test-exit-guard.ts")).href;
const runSuites = path.join(root, "scripts/run-suites.mjs");
const scratch = mkdtempSync(path.join(tmpdir(), "run-suites-test-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

// Without NODE_TEST_CONTEXT (set for this file by the outer runner), the inner `node --test` runs as a
// runner of its own and prints its report instead of streaming it to the outer one.
const { NODE_TEST_CONTEXT: _outer, ...childEnv } = process.env;

function runTestFile(name: string, body: string) {
  const file = path.join(scratch, name);
  writeFileSync(file, body);
  const started = Date.now();
  const run = spawnSync(process.execPath, ["--import", "tsx", "--import", guard, "--test", file], {
    cwd: root,
    env: childEnv,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { ...run, seconds: (Date.now() - started) / 1000 };
}

describe("test-exit-guard", () => {
  it("lets a file that closes what it opens exit at once, with every test reported", () => {
    const run = runTestFile(
      "clean.test.mjs",
      `import { describe, it, after } from "node:test";
       import net from "node:net";
       const server = net.createServer();
       after(() => new Promise((done) => server.close(done)));
       describe("one", () => { it("a", () => new Promise((done) => server.listen(0, "127.0.0.1", done))); });
       describe("two", () => { for (let i = 0; i < 20; i++) it("b" + i, () => {}); });`,
    );
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^# pass 21$/m);
    assert.ok(run.seconds < 10, `took ${run.seconds} s`);
  });

  it("fails a file that leaves a server open, naming it, instead of hanging", () => {
    const run = runTestFile(
      "leaky.test.mjs",
      `import { it } from "node:test";
       import net from "node:net";
       it("opens a server and forgets it", () => { net.createServer().listen(0, "127.0.0.1"); });`,
    );
    assert.notEqual(run.status, 0, "a leaking file must fail");
    assert.match(run.stdout + run.stderr, /test-exit-guard: .*leaky\.test\.mjs still running .*TCPServerWrap/);
    assert.match(run.stdout, /^# pass 1$/m, "its test itself still passed and was reported");
  });
});

describe("run-suites summary: the per-suite test counts", () => {
  const tallyFile = path.join(scratch, "tally.json");
  const countsFile = path.join(scratch, "counts.json");
  const env = { ...childEnv, TEST_TALLY_FILE: tallyFile, TEST_COUNTS_FILE: countsFile };
  const suite = (name: string, passed: number, failed = 0) => ({
    name,
    exitCode: failed ? 1 : 0,
    seconds: 1,
    passed,
    failed,
    skipped: 1,
  });
  const summarize = (suites: object[], counts: Record<string, number>, e2e: object = {}) => {
    writeFileSync(tallyFile, JSON.stringify({ suites, fast: true, expectedWorkspaces: [], e2e }));
    writeFileSync(countsFile, JSON.stringify(counts));
    return spawnSync(process.execPath, [runSuites, "summary"], { env, encoding: "utf8" });
  };

  it("passes a suite that reports as many tests as it has, or more", () => {
    const run = summarize([suite("packages/a", 9), suite("packages/b", 5)], { "packages/a": 10, "packages/b": 4 });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^tests: 14 passed, 0 failed, 2 skipped/m);
  });

  it("fails a suite that reports fewer tests than it has, though every reported test passed", () => {
    const run = summarize([suite("packages/a", 8), suite("packages/b", 5)], { "packages/a": 10, "packages/b": 6 });
    assert.equal(run.status, 1);
    assert.match(run.stdout, /FAILED: packages\/a: reported 9 tests, fewer than the 10/);
    assert.match(run.stdout, /^tests: 13 passed, 1 failed, 2 skipped/m);
  });

  it("counts a flaky Playwright test (passed on retry) as reported, and shows it", () => {
    const output = "  1 flaky\n    [ui] › specs/x.spec.ts:35:3 › x › y \n  34 passed (12.1m)\n";
    const counts = countResults(output);
    assert.deepEqual(counts, { passed: 34, failed: 0, skipped: 0, flaky: 1 });
    const run = summarize([{ ...suite("e2e", 34), skipped: 0, ...counts }], { e2e: 35 });
    assert.equal(run.status, 0, run.stdout);
    assert.match(run.stdout, /1 flaky: passed on retry/);
    assert.match(run.stdout, /^tests: 34 passed, 0 failed, 0 skipped, 1 flaky \(passed on retry\)/m);
    const short = summarize([{ ...suite("e2e", 33), skipped: 0, ...countResults("  1 flaky\n  33 passed\n") }], {
      e2e: 35,
    });
    assert.equal(short.status, 1, "34 reported of 35 still fails");
  });

  it("reads node:test's TAP and spec closing lines", () => {
    assert.deepEqual(countResults("# pass 7\n# fail 1\n# skipped 2\n"), { passed: 7, failed: 1, skipped: 2, flaky: 0 });
    assert.deepEqual(countResults("ℹ pass 4\nℹ fail 0\n"), { passed: 4, failed: 0, skipped: 0, flaky: 0 });
  });

  it("does not hold a narrowed e2e run (E2E_GREP) to the full count", () => {
    const run = summarize([suite("e2e", 3)], { e2e: 35 }, { grep: true });
    assert.equal(run.status, 0, run.stdout);
  });

  it("record-counts writes what a clean tally reported and skips a suite with failures", () => {
    writeFileSync(tallyFile, JSON.stringify({ suites: [suite("packages/a", 12), suite("packages/b", 2, 1)], e2e: {} }));
    writeFileSync(countsFile, JSON.stringify({ "packages/b": 7 }));
    const run = spawnSync(process.execPath, [runSuites, "record-counts"], { env, encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(readFileSync(countsFile, "utf8")), { "packages/a": 13, "packages/b": 7 });
  });
});
