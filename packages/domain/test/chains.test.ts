import { test } from "node:test";
import assert from "node:assert/strict";
import { CHAINS, NETWORKS, findNetwork, getChainOfNetwork } from "../src/index.js";

test("every network belongs to a known chain and has a positive block interval", () => {
  for (const n of NETWORKS) {
    assert.ok(getChainOfNetwork(n));
    assert.ok(n.blockIntervalMs > 0);
  }
  assert.equal(new Set(NETWORKS.map((n) => n.slug)).size, NETWORKS.length);
  assert.equal(findNetwork("kusama")?.blockIntervalMs, 6000);
  assert.deepEqual(CHAINS.find((c) => c.slug === "polkadot")?.families, ["substrate", "sidecar"]);
});
