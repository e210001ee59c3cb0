import { test } from "node:test";
import assert from "node:assert/strict";
import { parsePrometheusSamples, readNodeMetrics } from "../src/prometheus/node-metrics.js";
import { GETH_METRICS, SUBSTRATE_METRICS } from "./support/prometheus-fixtures.js";

test("text parser: labels with escapes, timestamps, +Inf, comments and malformed lines", () => {
  const samples = parsePrometheusSamples(
    [
      "# HELP x a help line",
      'x{a="1",b="q\\"uote\\\\",} 2 1700000000000',
      "y +Inf",
      "z{broken 3",
      "",
      "  w   4.5  ",
      "v NaN",
    ].join("\n"),
  );
  assert.deepEqual(samples, [
    { name: "x", labels: { a: "1", b: 'q"uote\\' }, value: 2 },
    { name: "y", labels: {}, value: Infinity },
    { name: "w", labels: {}, value: 4.5 },
  ]);
});

test("per client: Substrate, Geth and Nethermind names; unknown text reads as no client", () => {
  assert.equal(readNodeMetrics(parsePrometheusSamples(SUBSTRATE_METRICS)).client, "substrate");
  assert.equal(readNodeMetrics(parsePrometheusSamples(GETH_METRICS)).client, "geth");
  const syncingGeth = readNodeMetrics(
    parsePrometheusSamples("chain_head_block 100\nchain_head_header 180\np2p_peers 3\n"),
  );
  assert.deepEqual(
    [syncingGeth.syncing, syncingGeth.syncTarget, syncingGeth.finalizedBlock, syncingGeth.peers],
    [true, 180, null, 3],
  );
  const newerSubstrate = readNodeMetrics(
    parsePrometheusSamples(
      'substrate_block_height{status="best"} 5\nsubstrate_sync_peers 7\nsubstrate_is_major_syncing 0\n',
    ),
  );
  assert.deepEqual([newerSubstrate.peers, newerSubstrate.syncing, newerSubstrate.finalizedBlock], [7, false, null]);
  const nethermind = readNodeMetrics(
    parsePrometheusSamples(
      '# TYPE nethermind_blocks gauge\nnethermind_blocks{Instance="n1"} 21000000\nnethermind_sync_peers 25\n',
    ),
  );
  assert.deepEqual(nethermind, {
    client: "nethermind",
    peers: 25,
    bestBlock: 21_000_000,
    finalizedBlock: null,
    syncTarget: null,
    syncing: null,
  });
  assert.equal(readNodeMetrics(parsePrometheusSamples("go_goroutines 12\n")).client, null);
});
