import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parsePrometheusText } from "@rpcpulse/config/testing";
import { createLogger } from "@rpcpulse/config";
import { freePort } from "@rpcpulse/config/testing";
import { UsageError, resolveConfig, validateField } from "../src/config/load.js";
import { parseAgentEnv } from "../src/env.js";
import { buildMetricFamilies } from "../src/prometheus/metric-families.js";
import { startMetricsServer } from "../src/prometheus/metrics-server.js";
import { fetchNodeMetrics, fillChainFromNodeMetrics } from "../src/prometheus/node-metrics.js";
import { createPrometheusOutputs } from "../src/prometheus/prometheus-outputs.js";
import {
  acceptsOpenMetrics,
  renderOpenMetricsText,
  renderPrometheusText,
} from "../src/prometheus/render-exposition.js";
import { writeTextfileAtomically } from "../src/prometheus/write-textfile.js";
import { GETH_METRICS, SUBSTRATE_METRICS, makeKnownSample } from "./support/prometheus-fixtures.js";

const CLI = new URL("../src/cli.ts", import.meta.url).pathname;
const CWD = new URL("..", import.meta.url).pathname;
const log = createLogger({ name: "test", level: "silent" });

type Parsed = ReturnType<typeof parsePrometheusText>;

/** family name -> [type, [labels, value][]] from the real parser's output. */
function index(
  parsed: Parsed,
): Map<string, { type: string; help: string; samples: [Record<string, string>, number][] }> {
  return new Map(
    parsed.map((f) => [
      f.name,
      { type: f.type, help: f.help, samples: f.metrics.map((m) => [m.labels ?? {}, Number(m.value)]) },
    ]),
  );
}

/** Assert the exposition of the known sample (node_id "n-1", spool 2 batches / 4096 bytes / 1 dropped). */
function assertKnownExposition(text: string): void {
  const fams = index(parsePrometheusText(text));
  for (const [name, f] of fams) {
    assert.ok(name.startsWith("rpcpulse_agent_"), name);
    assert.ok(f.help.length > 0, `${name} has HELP`);
    assert.ok(f.type === "GAUGE" || f.type === "COUNTER", `${name} typed`);
    if (f.type === "COUNTER") assert.ok(name.endsWith("_total"), `counter ${name} ends in _total`);
    for (const [labels] of f.samples) assert.equal(labels.node_id, "n-1", `${name} carries node_id`);
  }
  const one = (name: string, labels: Record<string, string> = {}) => {
    const f = fams.get(name);
    assert.ok(f, `${name} present`);
    const hits = f.samples.filter(([l]) => Object.entries(labels).every(([k, v]) => l[k] === v));
    assert.equal(hits.length, 1, `${name} ${JSON.stringify(labels)} exactly once`);
    return hits[0]![1];
  };
  const type = (name: string) => fams.get(name)?.type;
  const labelSets = (name: string) => fams.get(name)!.samples.map(([l]) => Object.keys(l).sort().join(","));

  assert.equal(one("rpcpulse_agent_last_sample_timestamp_seconds"), Date.parse("2026-11-24T12:00:00Z") / 1000);
  assert.equal(type("rpcpulse_agent_tcp_connections"), "GAUGE");
  assert.equal(fams.get("rpcpulse_agent_tcp_connections")!.samples.length, 11);
  assert.equal(one("rpcpulse_agent_tcp_connections", { state: "time_wait" }), 50);
  assert.equal(one("rpcpulse_agent_tcp_connections", { state: "established" }), 120);
  assert.deepEqual(new Set(labelSets("rpcpulse_agent_tcp_connections")), new Set(["node_id,state"]));
  assert.equal(one("rpcpulse_agent_tcp_time_wait_connections", { direction: "inbound" }), 30);
  assert.equal(one("rpcpulse_agent_tcp_time_wait_connections", { direction: "outbound" }), 20);
  assert.equal(one("rpcpulse_agent_remote_ip_connections", { ip: "203.0.113.7" }), 40);
  assert.equal(one("rpcpulse_agent_remote_ip_connections", { ip: "2001:db8::1" }), 25);
  assert.equal(fams.get("rpcpulse_agent_remote_ip_connections")!.samples.length, 2, "top N only");
  assert.equal(one("rpcpulse_agent_remote_ips"), 3);
  assert.equal(type("rpcpulse_agent_listen_overflows_total"), "COUNTER");
  assert.equal(one("rpcpulse_agent_listen_overflows_total"), 17);
  assert.equal(one("rpcpulse_agent_listen_drops_total"), 19);
  assert.equal(one("rpcpulse_agent_chain_head_block", { family: "substrate" }), 1000);
  assert.equal(one("rpcpulse_agent_chain_finalized_block"), 998);
  assert.equal(one("rpcpulse_agent_chain_finality_lag_blocks"), 2);
  assert.equal(one("rpcpulse_agent_chain_head_age_seconds"), 6);
  assert.equal(one("rpcpulse_agent_chain_up"), 1);
  assert.equal(one("rpcpulse_agent_chain_syncing"), 0);
  assert.equal(fams.get("rpcpulse_agent_chain_peers"), undefined, "unknown peers are left out, not 0");
  assert.deepEqual(new Set(labelSets("rpcpulse_agent_rpc_latency_seconds")), new Set(["family,node_id,phase"]));
  assert.equal(one("rpcpulse_agent_rpc_latency_seconds", { phase: "connect" }), 0.0015);
  assert.equal(one("rpcpulse_agent_rpc_latency_seconds", { phase: "first_byte" }), 0.012);
  assert.equal(one("rpcpulse_agent_rpc_latency_seconds", { phase: "total" }), 0.013);
  assert.equal(one("rpcpulse_agent_memory_available_bytes"), 8_000_000_000);
  assert.equal(one("rpcpulse_agent_disk_available_bytes", { path: "/data" }), 350_000_000_000);
  assert.equal(one("rpcpulse_agent_push_backlog_batches"), 2);
  assert.equal(one("rpcpulse_agent_spool_size_bytes"), 4096);
  assert.equal(one("rpcpulse_agent_spool_dropped_batches_total"), 1);
}

const SPOOL = { backlogBatches: 2, droppedBatches: 1, bytes: 4096 };

test("exposition of a known sample: names, types, label sets and values through a real parser", () => {
  const families = buildMetricFamilies(makeKnownSample(), { nodeId: "n-1", spool: SPOOL });
  assertKnownExposition(renderPrometheusText(families));
});

test("OpenMetrics: counter families without _total, UNIT for unit names, # EOF last; Accept negotiation", () => {
  const text = renderOpenMetricsText(buildMetricFamilies(makeKnownSample(), { nodeId: "n-1", spool: SPOOL }));
  const lines = text.trimEnd().split("\n");
  assert.equal(lines.at(-1), "# EOF");
  assert.ok(lines.includes("# TYPE rpcpulse_agent_listen_overflows counter"));
  assert.ok(lines.some((l) => l.startsWith("rpcpulse_agent_listen_overflows_total{")));
  assert.ok(lines.includes("# UNIT rpcpulse_agent_chain_head_age_seconds seconds"));
  assert.ok(lines.includes("# UNIT rpcpulse_agent_spool_size_bytes bytes"));
  // Without the OpenMetrics-only lines it is the same data in the classic format.
  const classic = lines
    .filter((l) => !l.startsWith("# UNIT") && l !== "# EOF")
    .map((l) =>
      l.replace(
        /^# (TYPE|HELP) (rpcpulse_agent_\w+?_dropped_batches|rpcpulse_agent_\w+?_overflows|rpcpulse_agent_listen_drops) /,
        "# $1 $2_total ",
      ),
    )
    .join("\n");
  assertKnownExposition(`${classic}\n`);
  assert.equal(acceptsOpenMetrics("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"), true);
  assert.equal(acceptsOpenMetrics("text/plain;version=0.0.4"), false);
  assert.equal(acceptsOpenMetrics("application/openmetrics-text;q=0"), false);
  assert.equal(acceptsOpenMetrics(undefined), false);
});

test("--metrics-listen: off by default, a bare port binds 127.0.0.1, malformed addresses name the flag", () => {
  const none = resolveConfig({ flags: {}, env: parseAgentEnv({}) });
  assert.deepEqual(none.prometheus, { listen: null, textfile: null, nodeMetricsUrl: null });
  assert.deepEqual(validateField("metricsListen", "9465", "--metrics-listen"), { host: "127.0.0.1", port: 9465 });
  assert.deepEqual(validateField("metricsListen", ":9465", "--metrics-listen"), { host: "127.0.0.1", port: 9465 });
  assert.deepEqual(validateField("metricsListen", "0.0.0.0:9465", "--metrics-listen"), { host: "0.0.0.0", port: 9465 });
  assert.deepEqual(validateField("metricsListen", "[::1]:9465", "--metrics-listen"), { host: "::1", port: 9465 });
  for (const bad of ["127.0.0.1:", "127.0.0.1:70000", "a b:1", "::1:9465", "host:port"]) {
    assert.throws(
      () => validateField("metricsListen", bad, "--metrics-listen"),
      (e: unknown) => e instanceof UsageError && e.message.startsWith("--metrics-listen: expected host:port"),
      bad,
    );
  }
  assert.throws(() => validateField("textfile", "/tmp/x.txt", "--textfile"), /--textfile: must end in \.prom/);
  const env = parseAgentEnv({
    RPCPULSE_METRICS_LISTEN: "9999",
    RPCPULSE_NODE_METRICS_URL: "http://127.0.0.1:9615/metrics",
  });
  const fromEnv = resolveConfig({ flags: {}, env });
  assert.deepEqual(fromEnv.prometheus.listen, { host: "127.0.0.1", port: 9999 });
  assert.equal(fromEnv.prometheus.nodeMetricsUrl?.href, "http://127.0.0.1:9615/metrics");
});

test("HTTP /metrics serves the newest families, OpenMetrics on Accept, 404 elsewhere", async () => {
  let families = buildMetricFamilies(makeKnownSample(), { nodeId: "n-1", spool: SPOOL });
  const server = await startMetricsServer({ host: "127.0.0.1", port: 0 }, () => families);
  try {
    const base = `http://127.0.0.1:${server.address.port}`;
    const plain = await fetch(`${base}/metrics`);
    assert.equal(plain.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    assertKnownExposition(await plain.text());
    const om = await fetch(`${base}/metrics`, { headers: { accept: "application/openmetrics-text; version=1.0.0" } });
    assert.match(om.headers.get("content-type") ?? "", /^application\/openmetrics-text; version=1.0.0/);
    assert.ok((await om.text()).endsWith("# EOF\n"));
    assert.equal((await fetch(`${base}/`)).status, 404);
    families = [];
    assert.equal(await (await fetch(`${base}/metrics`)).text(), "\n");
  } finally {
    await server.close();
  }
});

test("textfile write is atomic: a concurrent reader never sees a partial file, no temp file left", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rpcpulse-textfile-"));
  const path = join(dir, "rpcpulse.prom");
  try {
    const version = (n: number) => `${"# filler line for size\n".repeat(20_000 + n * 997)}# END ${n}\n`;
    writeTextfileAtomically(path, version(0));
    // A separate process reads in a tight loop while this one rewrites the file.
    const reader = spawn(
      process.execPath,
      [
        "-e",
        `const fs=require("fs");let reads=0,bad=0;const end=Date.now()+1500;
         while(Date.now()<end){const t=fs.readFileSync(${JSON.stringify(path)},"utf8");reads++;
         const m=/# END (\\d+)\\n$/.exec(t);if(!m||t.length!==${"# filler line for size\n".length}*(20000+Number(m[1])*997)+m[0].length)bad++;}
         process.stdout.write(JSON.stringify({reads,bad}));`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    reader.stdout.on("data", (d: Buffer) => (out += d.toString()));
    const exited = once(reader, "exit");
    const until = Date.now() + 1300;
    let writes = 0;
    while (Date.now() < until) {
      writeTextfileAtomically(path, version(++writes % 7));
      await new Promise((r) => setImmediate(r));
    }
    await exited;
    const { reads, bad } = JSON.parse(out) as { reads: number; bad: number };
    assert.ok(writes > 5 && reads > 5, `exercised (${writes} writes, ${reads} reads)`);
    assert.equal(bad, 0, "every read was one whole version");
    assert.deepEqual(readdirSync(dir), ["rpcpulse.prom"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

async function serveText(routes: Record<string, string>) {
  const server = http.createServer((req, res) => {
    const body = routes[req.url ?? ""];
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

test("node metrics: Substrate and Geth endpoints fill peers, finality and syncing; a down endpoint is an error string", async () => {
  const srv = await serveText({ "/metrics": SUBSTRATE_METRICS, "/debug/metrics/prometheus": GETH_METRICS });
  try {
    const sub = await fetchNodeMetrics(new URL(`${srv.base}/metrics`), 2000);
    assert.deepEqual(sub, {
      ok: true,
      error: null,
      client: "substrate",
      peers: 42,
      bestBlock: 1000,
      finalizedBlock: 997,
      syncTarget: 1010,
      syncing: true,
    });
    const geth = await fetchNodeMetrics(new URL(`${srv.base}/debug/metrics/prometheus`), 2000);
    assert.deepEqual(geth, {
      ok: true,
      error: null,
      client: "geth",
      peers: 50,
      bestBlock: 19_000_000,
      finalizedBlock: 18_999_936,
      syncTarget: 19_000_000,
      syncing: false,
    });
    const chain = { ...makeKnownSample().chain!, peers: null, finalizedBlock: null, syncing: null };
    const filled = fillChainFromNodeMetrics(chain, sub);
    assert.deepEqual([filled.peers, filled.finalizedBlock, filled.syncing], [42, 997, true]);
    const rpcWins = fillChainFromNodeMetrics({ ...chain, finalizedBlock: 999 }, sub);
    assert.equal(rpcWins.finalizedBlock, 999, "what the RPC says is kept");

    // Through the run-time path: the sample is enriched and published with node_metrics_up and sync lag.
    const outputs = await createPrometheusOutputs(
      { listen: null, textfile: null, nodeMetricsUrl: new URL(`${srv.base}/metrics`) },
      { timeoutMs: 2000, log },
    );
    const sample = makeKnownSample();
    await outputs.enrichSample(sample);
    assert.equal(sample.chain?.peers, 42);
    assert.deepEqual(sample.errors, []);
    const text = renderPrometheusText(
      buildMetricFamilies(sample, { nodeMetrics: await fetchNodeMetrics(new URL(`${srv.base}/metrics`), 2000) }),
    );
    const fams = index(parsePrometheusText(text));
    assert.deepEqual(fams.get("rpcpulse_agent_chain_sync_lag_blocks")?.samples, [[{}, 10]]);
    assert.deepEqual(fams.get("rpcpulse_agent_chain_peers")?.samples, [[{ family: "substrate" }, 42]]);
    await outputs.close();
  } finally {
    await srv.close();
  }
  // Down: the endpoint's port is closed now. The sample survives with an error string.
  const down = await fetchNodeMetrics(new URL(`${srv.base}/metrics`), 1000);
  assert.equal(down.ok, false);
  assert.match(
    down.error ?? "",
    /^node metrics http:\/\/127\.0\.0\.1:\d+\/metrics: (.*ECONNREFUSED|other side closed)/,
  );
  const outputs = await createPrometheusOutputs(
    { listen: null, textfile: null, nodeMetricsUrl: new URL(`${srv.base}/metrics`) },
    { timeoutMs: 1000, log },
  );
  const sample = makeKnownSample();
  await outputs.enrichSample(sample);
  assert.equal(sample.chain?.headBlock, 1000);
  assert.equal(sample.errors.length, 1);
  assert.equal(sample.errors[0]!.group, "chain");
  assert.match(sample.errors[0]!.message, /^node metrics /);
});

test("run --metrics-listen <port> --textfile: served on 127.0.0.1 and written after each sample", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rpcpulse-prom-run-"));
  const port = await freePort();
  const textfile = join(dir, "rpcpulse.prom");
  const child = spawn(
    process.execPath,
    ["--import", "tsx", CLI, "run", "--dry-run", "--interval", "1s", "--log-level", "info"],
    {
      cwd: CWD,
      env: {
        PATH: "/usr/local/bin:/usr/bin:/bin",
        RPCPULSE_METRICS_LISTEN: String(port),
        RPCPULSE_TEXTFILE: textfile,
        RPCPULSE_NODE_ID: "n-run",
      },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  try {
    const deadline = Date.now() + 20_000;
    let text = "";
    while (Date.now() < deadline) {
      text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
        (r) => r.text(),
        () => "",
      );
      if (text.includes("rpcpulse_agent_last_sample_timestamp_seconds") && readdirSync(dir).length > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(stderr, new RegExp(`"host":"127.0.0.1","port":${port}`), stderr);
    const fams = index(parsePrometheusText(text));
    assert.equal(fams.get("rpcpulse_agent_tcp_connections")?.type, "GAUGE");
    assert.equal(fams.get("rpcpulse_agent_tcp_connections")?.samples[0]?.[0].node_id, "n-run");
    const fileFams = index(parsePrometheusText(readFileSync(textfile, "utf8")));
    assert.equal(fileFams.get("rpcpulse_agent_tcp_connections")?.type, "GAUGE");
    assert.ok(fileFams.has("rpcpulse_agent_last_sample_timestamp_seconds"));
  } finally {
    child.kill("SIGTERM");
    await once(child, "exit");
    rmSync(dir, { recursive: true, force: true });
  }
});
