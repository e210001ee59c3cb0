import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { createEndpointPicker, polkadotEndpoints, type EndpointPicker } from "../src/index.js";
import { rankedBody, startDirectoryFixture, type DirectoryFixture } from "./directory-fixture.js";

/** @polkadot/api against simulated Substrate nodes; the ranked list comes from the fixture directory API. */

let simnet: Simnet;
let api: DirectoryFixture;
let picker: EndpointPicker;

before(async () => {
  simnet = await startSimnet(
    {
      seed: "client-polkadot",
      nodes: [
        { name: "p1", family: "substrate", network: "polkadot", port: 0 },
        { name: "p2", family: "substrate", network: "polkadot", port: 0, lagBlocks: 1 },
        { name: "p3-http-only", family: "substrate", network: "polkadot", port: 0, websocket: false },
      ],
    },
    { clock: new ManualClock(Date.UTC(2026, 10, 22, 3, 0, 0)) },
  ); // heads only move when told to
  api = await startDirectoryFixture({
    polkadot: rankedBody(
      "polkadot",
      simnet.nodes.map((n) => ({ name: n.name, url: n.url, wsUrl: n.wsUrl })),
    ),
  });
  picker = createEndpointPicker({ network: "polkadot", apiBase: api.url, refreshMs: 0 });
  await picker.ready();
});
after(async () => {
  picker.close();
  await api.close();
  await simnet.close();
});

function waitForEvent(provider: WsProvider, event: "connected" | "disconnected", ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    const off = provider.on(event, () => {
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

test("ApiPromise over WsProvider with the ranked wss list: rpc.chain.getHeader survives the best node dying", async () => {
  const endpoints = polkadotEndpoints(picker);
  assert.deepEqual(
    endpoints,
    [simnet.node("p1").wsUrl, simnet.node("p2").wsUrl],
    "only endpoints with a wsUrl, best first",
  );
  const provider = new WsProvider(endpoints, 200);
  const chain = await ApiPromise.create({ provider, noInitWarn: true, throwOnConnect: true });
  try {
    assert.equal(provider.endpoint, simnet.node("p1").wsUrl);
    const before = await chain.rpc.chain.getHeader();
    assert.equal(before.number.toNumber(), simnet.node("p1").head());

    const reconnected = waitForEvent(provider, "connected", 5000);
    await simnet.node("p1").close();
    await reconnected;
    assert.equal(provider.endpoint, simnet.node("p2").wsUrl, "rotated to the next ranked endpoint");
    const afterDeath = await chain.rpc.chain.getHeader();
    assert.equal(afterDeath.number.toNumber(), simnet.node("p2").head(), "answered by p2 (lag 1)");
  } finally {
    await chain.disconnect();
  }
});
