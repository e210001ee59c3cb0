import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimnet, type Simnet } from "@rpcpulse/simnet";
import { agentSampleSchema } from "@rpcpulse/domain";
import { parseAgentEnv } from "../src/env.js";
import { resolveConfig, UsageError } from "../src/config/load.js";

const CLI = new URL("../src/cli.ts", import.meta.url).pathname;
let dir: string;
let sim: Simnet;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "rpcpulse-cli-"));
  sim = await startSimnet({ nodes: [{ name: "eth", family: "ethereum", network: "ethereum-mainnet" }] });
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await sim.close();
});

function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // A clean environment: a fixed PATH plus what the test passes (no RPCPULSE_* leaks in).
    const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...env },
      cwd: new URL("..", import.meta.url).pathname,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

test("precedence: flags > environment > config file > defaults", () => {
  const file = join(dir, "agent.json");
  writeFileSync(
    file,
    JSON.stringify({ family: "hive", topN: 5, interval: 30, ports: [8091, 443], dataDirs: ["/srv/hive"] }),
  );
  const env = parseAgentEnv({ RPCPULSE_TOP_N: "7", RPCPULSE_INTERVAL: "15s", RPCPULSE_CONFIG: file, UNRELATED: "x" });
  const fromFileAndEnv = resolveConfig({ flags: {}, env });
  assert.equal(fromFileAndEnv.topN, 7);
  assert.equal(fromFileAndEnv.intervalMs, 15_000);
  assert.deepEqual(fromFileAndEnv.ports, [443, 8091]);
  assert.deepEqual(fromFileAndEnv.dataDirs, ["/srv/hive"]);
  assert.equal(fromFileAndEnv.family, "hive");
  assert.equal(fromFileAndEnv.rpcUrl?.href, "http://127.0.0.1:8091/", "default endpoint of the family");
  const withFlags = resolveConfig({ flags: { topN: 9, interval: 2000 }, env });
  assert.equal(withFlags.topN, 9);
  assert.equal(withFlags.intervalMs, 2000);
  const defaults = resolveConfig({ flags: {}, env: parseAgentEnv({}) });
  assert.deepEqual([defaults.topN, defaults.intervalMs, defaults.ports, defaults.family], [20, 10_000, null, null]);
  assert.throws(() => resolveConfig({ flags: { rpcUrl: "http://127.0.0.1:1" }, env: parseAgentEnv({}) }), UsageError);
});

test("collect --once prints one valid wire sample with the node's chain data", async () => {
  const node = sim.node("eth");
  const r = await run([
    "collect",
    "--once",
    "--family",
    "ethereum",
    "--rpc-url",
    node.url,
    "--top-n",
    "3",
    "--ports",
    "443,8545",
    "--data-dir",
    dir,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const sample = agentSampleSchema.parse(JSON.parse(r.stdout));
  assert.equal(sample.chain?.ok, true, sample.chain?.error ?? "");
  assert.equal(sample.chain?.family, "ethereum");
  assert.ok(Math.abs((sample.chain?.headBlock ?? 0) - node.head()) <= 1);
  assert.deepEqual(sample.remoteIps?.ports, [443, 8545]);
  assert.ok((sample.remoteIps?.top.length ?? 0) <= 3);
  assert.deepEqual(
    sample.disks.map((d) => d.path),
    [dir, "/dev/shm"],
  );
});

test("usage errors exit 2 and name the flag, the variable or the file field", async () => {
  const cases: { args: string[]; env?: Record<string, string>; pattern: RegExp }[] = [
    { args: ["collect", "--once", "--interval", "0"], pattern: /--interval: must be between 1s and 3600s/ },
    { args: ["collect", "--once", "--top-n", "abc"], pattern: /--top-n: expected an integer from 1 to 100/ },
    { args: ["collect", "--once", "--ports", "80,70000"], pattern: /--ports: ports must be integers from 1 to 65535/ },
    {
      args: ["collect", "--once", "--family", "bitcoin"],
      pattern: /--family: must be one of hive, ethereum, substrate, sidecar/,
    },
    {
      args: ["collect", "--once"],
      env: { RPCPULSE_TOP_N: "500" },
      pattern: /RPCPULSE_TOP_N: expected an integer from 1 to 100/,
    },
    { args: ["collect", "--once"], env: { RPCPULSE_RPC_URL: "ftp://x" }, pattern: /RPCPULSE_RPC_URL: must be an http/ },
    { args: ["collect", "--once", "--rpc-url", "http://127.0.0.1:1"], pattern: /--rpc-url: needs a chain family/ },
    { args: ["collect", "--bogus"], pattern: /Unknown option '--bogus'/ },
    { args: ["frobnicate"], pattern: /unknown command "frobnicate"/ },
  ];
  const bad = join(dir, "bad.json");
  writeFileSync(bad, JSON.stringify({ topN: 1000 }));
  cases.push({
    args: ["collect", "--once", "--config", bad],
    pattern: new RegExp(`config file ${bad}: field "topN": expected an integer`),
  });
  const unknown = join(dir, "unknown.json");
  writeFileSync(unknown, JSON.stringify({ top_n: 5 }));
  cases.push({ args: ["collect", "--once", "--config", unknown], pattern: /unknown field "top_n"/ });
  const broken = join(dir, "broken.json");
  writeFileSync(broken, "{ not json");
  cases.push({ args: ["collect", "--once"], env: { RPCPULSE_CONFIG: broken }, pattern: /broken.json: invalid JSON/ });
  for (const c of cases) {
    const r = await run(c.args, c.env);
    assert.equal(r.code, 2, `${c.args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, c.pattern);
    assert.equal(r.stdout, "", "nothing on stdout on a usage error");
  }
});
