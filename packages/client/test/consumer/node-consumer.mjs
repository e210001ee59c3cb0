// Runs inside a fresh project that installed the packed @rpcpulse/client beside viem, @hiveio/dhive and
// @polkadot/api from the registry: plain ESM, as an app developer writes it. Started by
// package-tarball.test.ts with an IPC channel: `control()` asks the test to change the simulated world
// (close a node, lag a node, change the directory's answer) and waits until it is done.
import assert from "node:assert/strict";
import { Client } from "@hiveio/dhive";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { createDhiveAddressList, createEndpointPicker, polkadotEndpoints, trackWsProvider } from "@rpcpulse/client";
import { rpcPulse } from "@rpcpulse/client/viem";
import { createPublicClient } from "viem";
import { mainnet } from "viem/chains";

const cfg = JSON.parse(process.env.RPCPULSE_CONSUMER);
const report = {};

function control(op, args = {}) {
  return new Promise((resolve) => {
    process.once("message", resolve);
    process.send({ op, ...args });
  });
}

async function waitFor(check, ms, what) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

report.resolved = {
  core: import.meta.resolve("@rpcpulse/client"),
  viem: import.meta.resolve("@rpcpulse/client/viem"),
};

// viem: rpcPulse where http() would go; batched; the best node dies and the next one answers.
{
  const transport = rpcPulse({ network: "ethereum-mainnet", apiBase: cfg.apiBase, http: { batch: true } });
  const client = createPublicClient({ chain: mainnet, transport, cacheTime: 0 });
  const [head, chainId] = await Promise.all([client.getBlockNumber(), client.getChainId()]);
  assert.equal(head, BigInt(cfg.heads.e1), "e1 answers first");
  assert.equal(chainId, 1);
  await control("close", { node: "e1" });
  assert.equal(await client.getBlockNumber(), BigInt(cfg.heads.e2), "e2 answers after e1 died");
  report.viem = {
    current: client.transport.picker.current()?.name,
    e1: client.transport.picker.health().find((h) => h.url === cfg.urls.e1)?.state,
  };
  client.transport.picker.close();
}

// dhive: one Client whose address list follows the directory and the answers' heads.
{
  const list = createDhiveAddressList({ network: "hive", apiBase: cfg.apiBase, refreshMs: 300 });
  const client = new Client(await list.ready(), { timeout: 5000, failoverThreshold: 1 });
  list.attach(client);
  const first = await client.database.getDynamicGlobalProperties();
  assert.equal(first.head_block_number, cfg.heads.h1);
  await control("rerank-hive", { order: ["h3", "h1", "h2"] });
  await waitFor(() => client.address[0] === cfg.urls.h3, 10_000, "h3 first in client.address");
  const second = await client.database.getDynamicGlobalProperties();
  assert.equal(second.head_block_number, cfg.heads.h3);
  report.dhive = { address: [...client.address] };
  list.close();
}

// @polkadot/api: ranked wss endpoints; the provider follows the picker when the best node dies.
{
  const picker = createEndpointPicker({ network: "polkadot", apiBase: cfg.apiBase, refreshMs: 0 });
  await picker.ready();
  const provider = new WsProvider(polkadotEndpoints(picker), 200);
  const stop = trackWsProvider(picker, provider);
  const api = await ApiPromise.create({ provider, noInitWarn: true, throwOnConnect: true });
  const before = await api.rpc.chain.getHeader();
  assert.equal(before.number.toNumber(), cfg.heads.p1);
  const reconnected = new Promise((resolve) => {
    const off = provider.on("connected", () => {
      off();
      resolve();
    });
  });
  await control("close", { node: "p1" });
  await reconnected;
  const after = await api.rpc.chain.getHeader();
  report.polkadot = {
    endpoint: provider.endpoint,
    head: after.number.toNumber(),
    p1: picker.health().find((h) => h.url === cfg.urls.p1)?.state,
  };
  stop();
  await api.disconnect();
  picker.close();
}

await control("done", { report });
process.exit(0);
