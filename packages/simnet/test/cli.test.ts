import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

function runCli(args: string[]): ReturnType<typeof spawn> {
  return spawn(process.execPath, ["--import", "tsx", CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
}

test("the CLI serves a node from flags, prints its URL and exits 0 on SIGTERM", async () => {
  const child = runCli(["--family", "ethereum", "--network", "ethereum-sepolia", "--port", "0", "--lag", "3"]);
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const started = Date.now();
  while (!out.includes("\n") && Date.now() - started < 15_000) await new Promise((r) => setTimeout(r, 20));
  const [name, family, network, url, wsUrl] = out.trim().split("\t");
  assert.equal(name, "ethereum-ethereum-sepolia");
  assert.deepEqual([family, network], ["ethereum", "ethereum-sepolia"]);
  assert.match(url!, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(wsUrl!, /^ws:\/\/127\.0\.0\.1:\d+$/);
  const res = await fetch(url!, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
  });
  assert.deepEqual(await res.json(), { jsonrpc: "2.0", id: 1, result: "0xaa36a7" });
  child.kill("SIGTERM");
  const [code] = (await once(child, "exit")) as [number | null];
  assert.equal(code, 0);
});

test("the CLI names the bad flag and exits 2", async () => {
  const child = runCli(["--family", "hive", "--network", "hive", "--error-rate", "2"]);
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  assert.equal(code, 2);
  assert.match(err, /--error-rate: /);
});
