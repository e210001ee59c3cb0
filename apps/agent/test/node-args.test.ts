import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { agentSampleSchema } from "@rpcpulse/domain";
import { parseNodeArgs, readNodeArgs } from "../src/collect/settings.js";
import { Sampler } from "../src/collect/sampler.js";

const argv = (...a: string[]) => a.join("\0") + "\0";

test("node args: whitelisted flags only, in both spellings, repeated flags joined", () => {
  const args = parseNodeArgs(
    argv(
      "/usr/bin/geth",
      "--maxpeers",
      "10",
      "--authrpc.jwtsecret=/secret/jwt.hex",
      "--password",
      "hunter2",
      "--MAXPEERS=12",
    ),
  );
  assert.deepEqual(args, [{ flag: "--maxpeers", value: "10,12" }]);
  assert.deepEqual(
    parseNodeArgs(
      argv("nethermind", "--network.maxactivepeers", "25", "--Db.MaxBytesPerSec=1000", "--Init.MemoryHint"),
    ),
    [
      { flag: "--Network.MaxActivePeers", value: "25" },
      { flag: "--Db.MaxBytesPerSec", value: "1000" },
      { flag: "--Init.MemoryHint", value: "true" },
    ],
  );
  assert.deepEqual(
    parseNodeArgs(
      argv("hived", "--p2p-seed-node", "a:2001", "--p2p-seed-node=b:2001", "--shared-file-dir", "/dev/shm"),
    ),
    [
      { flag: "--p2p-seed-node", value: "a:2001,b:2001" },
      { flag: "--shared-file-dir", value: "/dev/shm" },
    ],
  );
  assert.deepEqual(parseNodeArgs(""), []);
  assert.deepEqual(parseNodeArgs(argv("polkadot", "--rpc-max-connections")), [
    { flag: "--rpc-max-connections", value: "true" },
  ]);
});

test("node args are read from the configured process and sent in the settings group", async () => {
  const child = spawn(
    process.execPath,
    ["-e", "setInterval(() => {}, 1e6)", "--", "--rpc-max-connections", "500", "--node-key", "secret"],
    { stdio: "ignore" },
  );
  try {
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(readNodeArgs("/proc", child.pid!), [{ flag: "--rpc-max-connections", value: "500" }]);
    const sampler = new Sampler({
      publicPorts: null,
      topN: 5,
      dataDirs: [],
      process: { pid: child.pid! },
      chain: null,
    });
    const sample = agentSampleSchema.parse(await sampler.collect());
    assert.deepEqual(sample.settings?.nodeArgs, [{ flag: "--rpc-max-connections", value: "500" }]);
    const noProcess = agentSampleSchema.parse(
      await new Sampler({ publicPorts: null, topN: 5, dataDirs: [], process: null, chain: null }).collect(),
    );
    assert.equal(noProcess.settings?.nodeArgs, null);
  } finally {
    child.kill();
  }
});
