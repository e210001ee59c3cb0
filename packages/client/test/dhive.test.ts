import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client } from "@hiveio/dhive";
import { waitFor } from "@rpcpulse/config/testing";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import {
  createDhiveAddressList,
  createDhiveFailover,
  createEndpointPicker,
  syncDhiveAddresses,
  type EndpointPicker,
} from "../src/index.js";
import { rankedBody, startDirectoryFixture, type DirectoryFixture } from "./directory-fixture.js";

/** @hiveio/dhive against simulated Hive nodes; the ranked list comes from the fixture directory API. */

let simnet: Simnet;
let api: DirectoryFixture;
const pickers: EndpointPicker[] = [];

before(async () => {
  simnet = await startSimnet(
    {
      seed: "client-dhive",
      nodes: ["h1", "h2", "h3", "s1", "s2", "r1", "r2", "r3"].map((name, i) => ({
        name,
        family: "hive",
        network: name.startsWith("s") ? "steem" : "hive",
        port: 0,
        lagBlocks: i % 3,
      })),
    },
    { clock: new ManualClock(Date.UTC(2026, 10, 22, 3, 0, 0)) },
  ); // heads only move when told to
  const body = (names: string[]) =>
    rankedBody(
      "hive",
      names.map((n) => ({ name: n, url: simnet.node(n).url })),
    );
  api = await startDirectoryFixture({
    hive: body(["h1", "h2", "h3"]),
    steem: { ...(body(["s1", "s2"]) as object), network: "steem" },
    "hive-refresh": { ...(body(["r1", "r2"]) as object), network: "hive-refresh" },
  });
});
after(async () => {
  for (const p of pickers) p.close();
  await api.close();
  await simnet.close();
});

async function newPicker(network: string): Promise<EndpointPicker> {
  const picker = createEndpointPicker({ network, apiBase: api.url, refreshMs: 0, maxLagBlocks: 5 });
  pickers.push(picker);
  await picker.ready();
  return picker;
}

function assertHeadOf(node: string, head: number): void {
  assert.equal(head, simnet.node(node).head(), `head ${head} is not ${node}'s`);
}

test("dhive through the failover transport: getDynamicGlobalProperties survives the best node dying, then skips a stale node", async () => {
  const picker = await newPicker("hive");
  const created: string[] = [];
  const hive = createDhiveFailover(picker, {
    createClient: (url) => {
      created.push(url);
      return new Client(url, { timeout: 800 });
    },
    perAttemptTimeoutMs: 2000,
    maxAttempts: 3,
  });
  const first = await hive.run((c) => c.database.getDynamicGlobalProperties());
  assertHeadOf("h1", first.head_block_number);
  assert.equal(picker.current()?.name, "h1");

  await simnet.node("h1").close(); // the best node dies mid-test
  const second = await hive.run((c) => c.database.getDynamicGlobalProperties());
  assertHeadOf("h2", second.head_block_number);
  const byUrl = new Map(picker.health().map((h) => [h.url, h]));
  assert.equal(byUrl.get(simnet.node("h1").url)?.state, "open");
  assert.equal(picker.current()?.name, "h2");

  simnet.node("h2").setLag(30); // h2 answers, but 30 blocks behind what h1 showed: stale, go to h3
  const third = await hive.run((c) => c.database.getDynamicGlobalProperties());
  assertHeadOf("h3", third.head_block_number);
  assert.equal(picker.health().find((h) => h.url === simnet.node("h2").url)?.lastFailure, "stale-head");
  assert.equal(picker.current()?.name, "h3");
  assert.deepEqual(
    created,
    [simnet.node("h1").url, simnet.node("h2").url, simnet.node("h3").url],
    "one client per URL",
  );
  simnet.node("h2").setLag(0);
});

test("dhive with the picker's ordered address array: dhive's own failover, address kept in the picker's order", async () => {
  const picker = await newPicker("steem");
  const client = new Client(picker.urls(), { timeout: 5000, failoverThreshold: 2, addressPrefix: "STM" });
  const stop = syncDhiveAddresses(picker, client);
  assert.deepEqual(client.address, [simnet.node("s1").url, simnet.node("s2").url]);
  assertHeadOf("s1", (await client.database.getDynamicGlobalProperties()).head_block_number);

  await simnet.node("s1").close();
  assertHeadOf("s2", (await client.database.getDynamicGlobalProperties()).head_block_number);

  picker.reportFailure(simnet.node("s1").url, "error"); // what our own calls or head checks would report
  assert.deepEqual(client.address, [simnet.node("s2").url, simnet.node("s1").url]);
  stop();
  picker.reportSuccess(simnet.node("s1").url);
  assert.deepEqual(client.address, [simnet.node("s2").url, simnet.node("s1").url], "no update after stop()");
});

test("createDhiveAddressList: the Client's address follows the directory as it changes, and a stale answer moves its node back", async () => {
  const list = createDhiveAddressList({ network: "hive-refresh", apiBase: api.url, refreshMs: 300, maxLagBlocks: 5 });
  const [r1, r2, r3] = ["r1", "r2", "r3"].map((n) => simnet.node(n).url) as [string, string, string];
  try {
    const client = new Client(await list.ready(), { timeout: 2000, failoverThreshold: 1 });
    list.attach(client);
    assert.deepEqual(client.address, [r1, r2]);
    assertHeadOf("r1", (await client.database.getDynamicGlobalProperties()).head_block_number);

    // The directory now ranks a new node r3 first: the next periodic refresh puts it at the front.
    simnet.node("r3").setLag(30);
    api.setBody("hive-refresh", {
      ...(rankedBody(
        "hive-refresh",
        ["r3", "r1", "r2"].map((n) => ({ name: n, url: simnet.node(n).url })),
      ) as object),
      network: "hive-refresh",
    });
    await waitFor("r3 at the front of client.address", () => (client.address as string[])[0] === r3, 3000);
    assert.deepEqual(client.address, [r3, r1, r2]);

    // r3 answers 30 blocks behind what r1 showed: the observed call moves it to the back.
    assertHeadOf("r3", (await client.database.getDynamicGlobalProperties()).head_block_number);
    assert.equal(list.picker.health().find((h) => h.url === r3)?.lastFailure, "stale-head");
    assert.deepEqual(client.address, [r1, r2, r3]);
    assertHeadOf("r1", (await client.database.getDynamicGlobalProperties()).head_block_number);
  } finally {
    list.close();
    simnet.node("r3").setLag(0);
  }
});
