import { test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fetchNodeMetrics, parsePrometheusSamples, readNodeMetrics } from "../src/prometheus/node-metrics.js";
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

test("node metrics endpoint answering 500, a body over 8 MiB or unknown text: an error string, never a throw", async () => {
  const server = http.createServer((req, res) => {
    if (req.url === "/broken") res.writeHead(500).end("boom");
    else if (req.url === "/huge") {
      res.writeHead(200); // chunked, no content-length: the bound applies while reading
      const line = Buffer.from("# padding\n".repeat(100_000));
      for (let i = 0; i < 9; i++) res.write(line);
      res.end();
    } else res.writeHead(200).end("go_goroutines 12\n");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const broken = await fetchNodeMetrics(new URL(`${base}/broken`), 2000);
    assert.deepEqual([broken.ok, broken.error], [false, `node metrics ${base}/broken: HTTP 500`]);
    const huge = await fetchNodeMetrics(new URL(`${base}/huge`), 5000);
    assert.deepEqual([huge.ok, huge.error], [false, `node metrics ${base}/huge: body over 8388608 bytes`]);
    const unknown = await fetchNodeMetrics(new URL(`${base}/metrics`), 2000);
    assert.equal(unknown.ok, true);
    assert.equal(unknown.client, null);
    assert.match(unknown.error ?? "", /no known Substrate, Geth or Nethermind metric/);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
