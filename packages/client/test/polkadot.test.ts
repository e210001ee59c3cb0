import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ApiPromise, WsProvider } from "@polkadot/api";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { createEndpointPicker, polkadotEndpoints, trackWsProvider, type EndpointPicker } from "../src/index.js";
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
        ...["q1", "q2", "q3"].map((name) => ({ name, family: "substrate" as const, network: "polkadot", port: 0 })),
      ],
    },
    { clock: new ManualClock(Date.UTC(2026, 10, 22, 3, 0, 0)) },
  ); // heads only move when told to
  api = await startDirectoryFixture({
    polkadot: rankedBody(
      "polkadot",
      simnet.nodes.filter((n) => n.name.startsWith("p")).map((n) => ({ name: n.name, url: n.url, wsUrl: n.wsUrl })),
    ),
    "polkadot-track": {
      ...(rankedBody(
        "polkadot-track",
        simnet.nodes.filter((n) => n.name.startsWith("q")).map((n) => ({ name: n.name, url: n.url, wsUrl: n.wsUrl })),
      ) as object),
      network: "polkadot-track",
    },
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

test("trackWsProvider: drops are reported to the picker and the reconnect goes to the picker's best endpoint", async () => {
  const tracked = createEndpointPicker({
    network: "polkadot-track",
    apiBase: api.url,
    refreshMs: 0,
    breaker: { baseMs: 60_000 },
  });
  await tracked.ready();
  const [q1, q2, q3] = ["q1", "q2", "q3"].map((n) => simnet.node(n));
  const provider = new WsProvider(polkadotEndpoints(tracked), 200);
  const stop = trackWsProvider(tracked, provider);
  const chain = await ApiPromise.create({ provider, noInitWarn: true, throwOnConnect: true });
  try {
    assert.equal(provider.endpoint, q1!.wsUrl);
    tracked.reportFailure(q2!.url, "error"); // seen failing elsewhere in the app: plain rotation would still pick it

    const reconnected = waitForEvent(provider, "connected", 5000);
    await q1!.close();
    await reconnected;
    assert.equal(provider.endpoint, q3!.wsUrl, "skipped q2, whose breaker is open");
    assert.equal(tracked.health().find((h) => h.url === q1!.url)?.state, "open", "the drop was reported");
    assert.equal((await chain.rpc.chain.getHeader()).number.toNumber(), q3!.head());
  } finally {
    stop();
    await chain.disconnect();
    tracked.close();
  }
});
