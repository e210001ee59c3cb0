import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { createPublicClient, custom, fallback, http } from "viem";
import { mainnet } from "viem/chains";
import { createEip1193Provider, createEndpointPicker, type EndpointPicker } from "../src/index.js";
import { rankedBody, startDirectoryFixture, type DirectoryFixture } from "./directory-fixture.js";

/** viem against simulated Ethereum nodes; the ranked list comes from the fixture directory API. */

const NETWORK = "ethereum-mainnet";
let simnet: Simnet;
let api: DirectoryFixture;
const pickers: EndpointPicker[] = [];

before(async () => {
  simnet = await startSimnet(
    {
      seed: "client-viem",
      nodes: ["g1", "g2", "g3", "f1", "f2"].map((name, i) => ({
        name,
        family: "ethereum",
        network: NETWORK,
        port: 0,
        lagBlocks: i % 3,
      })),
    },
    { clock: new ManualClock(Date.UTC(2026, 10, 22, 3, 0, 0)) },
  ); // heads only move when told to
  api = await startDirectoryFixture({
    [NETWORK]: rankedBody(
      NETWORK,
      ["g1", "g2", "g3"].map((n) => ({ name: n, url: simnet.node(n).url })),
    ),
    "ethereum-sepolia": {
      ...(rankedBody(
        NETWORK,
        ["f1", "f2"].map((n) => ({ name: n, url: simnet.node(n).url })),
      ) as object),
      network: "ethereum-sepolia",
    },
  });
});
after(async () => {
  for (const p of pickers) p.close();
  await api.close();
  await simnet.close();
});

async function newPicker(network: string): Promise<EndpointPicker> {
  const picker = createEndpointPicker({ network, apiBase: api.url, refreshMs: 0 });
  pickers.push(picker);
  await picker.ready();
  return picker;
}

test("viem custom transport over the picker: getBlockNumber keeps working when the best node dies", async () => {
  const picker = await newPicker(NETWORK);
  const provider = createEip1193Provider(picker, { perAttemptTimeoutMs: 1000, maxAttempts: 3 });
  // retryCount 0: any failover seen here is ours, not viem's retry of the same endpoint.
  const client = createPublicClient({ chain: mainnet, transport: custom(provider, { retryCount: 0 }), cacheTime: 0 });
  assert.equal(await client.getBlockNumber(), BigInt(simnet.node("g1").head()));
  assert.equal(await client.getChainId(), 1);

  await simnet.node("g1").close();
  const head = await client.getBlockNumber();
  assert.equal(head, BigInt(simnet.node("g2").head()), "g2 (lag 1) answered");
  assert.equal(picker.current()?.name, "g2");
  assert.equal(picker.health().find((h) => h.url === simnet.node("g1").url)?.state, "open");

  simnet.node("g2").setErrorRate(1, "http-503");
  assert.equal(await client.getBlockNumber(), BigInt(simnet.node("g3").head()), "g3 (lag 2) answered");
  simnet.node("g2").setErrorRate(0);
});

test("viem fallback of http transports built from the ranked list also survives the best node dying", async () => {
  const picker = await newPicker("ethereum-sepolia");
  const transport = fallback(picker.urls().map((u) => http(u, { retryCount: 0, timeout: 1000 })));
  const client = createPublicClient({ transport, cacheTime: 0 });
  assert.equal(await client.getBlockNumber(), BigInt(simnet.node("f1").head()));
  await simnet.node("f1").close();
  assert.equal(await client.getBlockNumber(), BigInt(simnet.node("f2").head()));
});
