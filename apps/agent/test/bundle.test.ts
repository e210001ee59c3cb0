import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { agentSampleSchema } from "@rpcpulse/domain";

const ROOT = new URL("..", import.meta.url).pathname;
const BUNDLE = new URL("../dist/rpcpulse-agent.mjs", import.meta.url).pathname;

test("the esbuild bundle is one executable file that runs collect --once without node_modules", () => {
  execFileSync(process.execPath, ["build.mjs"], { cwd: ROOT, stdio: "pipe" });
  const text = readFileSync(BUNDLE, "utf8");
  assert.ok(text.startsWith("#!/usr/bin/env node\n"), "shebang");
  assert.ok((statSync(BUNDLE).mode & 0o111) !== 0, "executable bit");
  assert.doesNotMatch(text, /from\s*["'](?:zod|pino|@rpcpulse\/)/, "no imports left to resolve at run time");
  // Run it from / with no NODE_PATH: it must not need the repository's node_modules.
  const r = spawnSync(BUNDLE, ["collect", "--once", "--top-n", "5"], {
    cwd: "/",
    encoding: "utf8",
    env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
  });
  assert.equal(r.status, 0, r.stderr);
  const sample = agentSampleSchema.parse(JSON.parse(r.stdout));
  assert.ok(sample.tcp && sample.tcp.total > 0);
  const v = spawnSync(BUNDLE, ["--interval", "x"], { encoding: "utf8" });
  assert.equal(v.status, 2, "usage errors exit 2 from the bundle too");
});
