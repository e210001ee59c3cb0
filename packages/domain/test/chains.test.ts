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

test("the plausible head ceiling is above each network's real height and refuses absurd heads", async () => {
  const { checkPlausibleHead, plausibleHeadCeiling } = await import("../src/index.js");
  const at = Date.UTC(2026, 10, 24);
  // Real heights, rounded, at the end of 2025 (public explorers), moved forward one block per interval.
  const real: Record<string, number> = {
    hive: 101_200_000,
    steem: 100_900_000,
    "ethereum-mainnet": 24_140_000,
    "ethereum-sepolia": 9_950_000,
    polkadot: 28_950_000,
    kusama: 31_100_000,
  };
  for (const n of NETWORKS) {
    const now = (real[n.slug] ?? 0) + Math.floor((at - Date.UTC(2026, 0, 1)) / n.blockIntervalMs);
    assert.ok(plausibleHeadCeiling(n, at) > now, `${n.slug} ceiling below its real height`);
    assert.equal(checkPlausibleHead(n, at, now, now - 2), null);
  }
  const eth = findNetwork("ethereum-mainnet")!;
  assert.match(checkPlausibleHead(eth, at, 2 ** 53 - 1) ?? "", /outside Ethereum mainnet's plausible range/);
  assert.match(checkPlausibleHead(eth, at, -1) ?? "", /plausible range/);
  assert.match(checkPlausibleHead(eth, at, 100, 101) ?? "", /above the head block/);
});
