import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Simnet } from "@rpcpulse/simnet";
import { checkCapabilities, createSafeHttpClient, probeEndpoint, type ProbeTarget } from "../src/index.js";
import { ManualClock, SIM_T0, startSim } from "./helpers/sim.js";

const targetOf = (sim: Simnet, name: string): ProbeTarget => {
  const n = sim.node(name);
  return { url: n.url, family: n.family, network: n.network, wsUrl: n.wsUrl };
};

describe("probes against simnet", () => {
  const clock = new ManualClock(SIM_T0);
  let sim: Simnet;
  const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 3000 });

  before(async () => {
    sim = await startSim(
      [
        { name: "hive-a", family: "hive", network: "hive", irreversibleLagBlocks: 18 },
        { name: "hive-lag", family: "hive", network: "hive", lagBlocks: 7 },
        { name: "eth-a", family: "ethereum", network: "ethereum-mainnet", archive: true },
        {
          name: "eth-pruned",
          family: "ethereum",
          network: "ethereum-mainnet",
          getLogsMaxRange: 1000,
          missingMethods: ["debug_traceBlockByNumber"],
        },
        { name: "dot-a", family: "substrate", network: "polkadot", archive: true },
        { name: "dot-pruned", family: "substrate", network: "polkadot", websocket: false },
        { name: "sidecar-a", family: "sidecar", network: "polkadot" },
        { name: "eth-500", family: "ethereum", network: "ethereum-mainnet", errorRate: 1, errorKind: "http-503" },
        {
          name: "eth-rpcerr",
          family: "ethereum",
          network: "ethereum-mainnet",
          errorRate: 1,
          errorKind: "jsonrpc-internal",
        },
        {
          name: "eth-429",
          family: "ethereum",
          network: "ethereum-mainnet",
          rateLimit: { requestsPerSecond: 0.001, burst: 1 },
        },
      ],
      clock,
    );
  });
  after(() => sim.close());

  it("reads head, head time and finality per family, exactly as the node reports them", async () => {
    for (const name of ["hive-a", "hive-lag", "eth-a", "dot-a", "sidecar-a"]) {
      const node = sim.node(name);
      const r = await probeEndpoint(targetOf(sim, name), client, { now: () => clock.now() });
      assert.equal(r.ok, true, `${name}: ${r.errorMessage}`);
      assert.equal(r.headBlock, node.head(), name);
      assert.equal(r.httpStatus, 200);
      assert.ok(r.responseBytes > 50);
      assert.ok(
        r.finalizedBlock !== null && r.finalizedBlock < node.head() && r.finalizedBlock > node.head() - 200,
        `${name} finalized ${r.finalizedBlock}`,
      );
      assert.ok(r.phases && r.phases.ttfbMs > 0 && r.phases.totalMs >= r.phases.ttfbMs && r.phases.connectMs > 0);
      if (node.family === "hive" || node.family === "ethereum") {
        const net = sim.networks.get(node.network);
        assert.equal(r.headTime, net?.timeOfHeight(node.head()), `${name} head time`);
      } else {
        assert.equal(r.headTime, null);
      }
    }
    const hive = await probeEndpoint(targetOf(sim, "hive-a"), client);
    assert.equal(hive.finalizedBlock, (hive.headBlock ?? 0) - 18);
    const lag = await probeEndpoint(targetOf(sim, "hive-lag"), client);
    assert.equal((hive.headBlock ?? 0) - (lag.headBlock ?? 0), 7);
  });

  it("classifies HTTP errors, JSON-RPC errors and rate limiting", async () => {
    const e503 = await probeEndpoint(targetOf(sim, "eth-500"), client);
    assert.deepEqual([e503.ok, e503.errorClass, e503.httpStatus, e503.rateLimited], [false, "http", 503, false]);
    const rpc = await probeEndpoint(targetOf(sim, "eth-rpcerr"), client);
    assert.equal(rpc.ok, false);
    assert.equal(rpc.errorClass, "rpc");
    assert.equal(rpc.rpcError?.code, -32603);
    const first = await probeEndpoint(targetOf(sim, "eth-429"), client, { finality: false });
    assert.equal(first.ok, true);
    const limited = await probeEndpoint(targetOf(sim, "eth-429"), client, { finality: false });
    assert.deepEqual(
      [limited.ok, limited.rateLimited, limited.httpStatus, limited.errorClass],
      [false, true, 429, "http"],
    );
    const refused = await probeEndpoint({ url: "http://127.0.0.1:1/", family: "hive", network: "hive" }, client);
    assert.equal(refused.errorClass, "connect");
    const blocked = await probeEndpoint({ url: "http://169.254.169.254/", family: "hive", network: "hive" }, client);
    assert.equal(blocked.errorClass, "ssrf_blocked");
  });

  it("detects archive, method coverage, batch, logs range, client version per family", async () => {
    // simnet builds every block's logs on demand: wide ranges are slow there, so try narrower ones.
    const opts = { websocket: false, now: () => clock.now(), logsRanges: [2000, 1000, 100] };
    const ethA = await checkCapabilities(targetOf(sim, "eth-a"), client, opts);
    const ethP = await checkCapabilities(targetOf(sim, "eth-pruned"), client, opts);
    assert.equal(ethA.archive, true);
    assert.equal(ethP.archive, false);
    assert.match(ethP.archiveDetail ?? "", /missing trie node/);
    assert.equal(ethA.methods.debug, true);
    assert.equal(ethP.methods.debug, false);
    assert.equal(ethA.methods.trace, false, "geth has no trace_ namespace");
    assert.deepEqual([ethA.logsMaxRange, ethA.logsRangeLimited], [2000, false]);
    assert.deepEqual([ethP.logsMaxRange, ethP.logsRangeLimited], [1000, true]);
    assert.equal(ethA.batch, true);
    assert.match(ethA.clientVersion ?? "", /^Geth\//);

    const dotA = await checkCapabilities(targetOf(sim, "dot-a"), client, opts);
    const dotP = await checkCapabilities(targetOf(sim, "dot-pruned"), client, opts);
    assert.equal(dotA.archive, true);
    assert.equal(dotP.archive, false);
    assert.match(dotP.archiveDetail ?? "", /State already discarded/);
    assert.equal(dotA.methods.chain, true);
    // Substrate nodes list every registered method in rpc_methods, unsafe ones included (a node run
    // with --rpc-methods=safe refuses the call, not the listing); simnet serves author_hasSessionKeys.
    assert.equal(dotA.methods.author, true);
    assert.equal(dotA.methods.babe, false, "simnet serves no babe_ method");
    assert.match(dotA.clientVersion ?? "", /Polkadot/);

    const hive = await checkCapabilities(targetOf(sim, "hive-a"), client, opts);
    assert.equal(hive.methods.condenser_api, true);
    assert.equal(hive.methods.account_history_api, true);
    assert.equal(hive.methods.bridge, true);
    assert.equal(hive.batch, true);
    sim.node("hive-a").setMissingMethods(["bridge.get_ranked_posts", "account_history_api.get_account_history"]);
    const hive2 = await checkCapabilities(targetOf(sim, "hive-a"), client, opts);
    sim.node("hive-a").setMissingMethods([]);
    assert.equal(hive2.methods.bridge, false);
    assert.equal(hive2.methods.account_history_api, false);
    assert.ok((hive2.coverage ?? 1) < (hive.coverage ?? 0));

    const sidecar = await checkCapabilities(targetOf(sim, "sidecar-a"), client, opts);
    assert.equal(sidecar.methods.node_version, true);
    assert.equal(sidecar.batch, null);
    assert.equal(sidecar.websocket.supported, null);
    assert.match(sidecar.clientVersion ?? "", /polkadot/);
  });

  it("checks WebSocket support and new-head latency through the SSRF policy", async () => {
    const pending = checkCapabilities(targetOf(sim, "eth-a"), client, {
      now: () => clock.now(),
      wsHeadWaitMs: 3000,
      logsRanges: [100],
    });
    // Let the subscription open, then produce the next block on the shared clock.
    const net = sim.networks.get("ethereum-mainnet");
    const advance = setInterval(() => clock.advance(1000), 100);
    const eth = await pending;
    clearInterval(advance);
    assert.equal(eth.websocket.supported, true);
    assert.equal(eth.websocket.subscription, true);
    assert.ok(eth.websocket.firstHeadMs !== null && eth.websocket.firstHeadMs > 0, JSON.stringify(eth.websocket));
    assert.ok(
      eth.websocket.headDelayMs !== null && eth.websocket.headDelayMs >= 0 && eth.websocket.headDelayMs < 12_000,
    );
    assert.ok(net);

    const noWs = await checkCapabilities(targetOf(sim, "dot-pruned"), client, {
      now: () => clock.now(),
      wsHeadWaitMs: 200,
    });
    assert.equal(noWs.websocket.supported, false);
    const hive = await checkCapabilities(targetOf(sim, "hive-a"), client, {
      now: () => clock.now(),
      wsHeadWaitMs: 200,
    });
    assert.equal(hive.websocket.supported, false, "simnet Hive nodes have no WebSocket by default");
    // Without allowPrivate the WebSocket URL is refused like any other loopback target.
    const strict = createSafeHttpClient({ allowedPorts: "any" });
    const refused = await checkCapabilities(targetOf(sim, "dot-a"), strict, { wsHeadWaitMs: 200 });
    assert.equal(refused.websocket.supported, false);
    assert.match(refused.websocket.error ?? "", /loopback/);
  });
});
