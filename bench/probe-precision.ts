/**
 * Probe precision: our time to first byte vs curl's time_starttransfer against the same loopback
 * target that adds a fixed delay, interleaved one-for-one; then the latency inflation of probing at
 * the configured concurrency over sequential probing. The target runs in its own process.
 *
 *   node --import tsx bench/probe-precision.ts            (N=200, 50 ms, concurrency 16)
 *   N=500 DELAY_MS=20 CONCURRENCY=32 node --import tsx bench/probe-precision.ts
 *
 * Goals (performance.md G13): median(ours)/median(curl) within [0.9, 1.1]; p50 at concurrency /
 * p50 sequential <= 1.1.
 */
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { promisify } from "node:util";
import {
  createProbeScheduler,
  createSafeHttpClient,
  probeEndpoint,
  quantile,
  type ProbeResult,
  type ProbeTarget,
} from "@rpcpulse/prober";

const run = promisify(execFile);
const N = Number(process.env.N ?? 200);
const DELAY_MS = Number(process.env.DELAY_MS ?? 50);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);

const BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  result: { number: "0x1716d3a", timestamp: "0x6925f1b0", hash: `0x${"ab".repeat(32)}` },
});
const REQUEST = JSON.stringify({ jsonrpc: "2.0", method: "eth_getBlockByNumber", params: ["latest", false], id: 1 });

const SERVER = `
const http = require("node:http");
const body = ${JSON.stringify(BODY)};
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => setTimeout(() => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  }, ${DELAY_MS}));
});
server.keepAliveTimeout = 1000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

async function startTarget(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const [chunk] = (await once(child.stdout, "data")) as [Buffer];
  return { url: `http://127.0.0.1:${chunk.toString().trim()}/`, stop: () => child.kill() };
}

async function curlTtfbMs(url: string): Promise<number> {
  const { stdout } = await run("curl", [
    "-s",
    "-o",
    "/dev/null",
    "-w",
    "%{time_starttransfer}",
    "-H",
    "content-type: application/json",
    "--data-binary",
    REQUEST,
    url,
  ]);
  return Number(stdout.trim().replace(",", ".")) * 1000;
}

const fmt = (v: number | null, digits = 3): string => (v === null ? "-" : v.toFixed(digits));

async function main(): Promise<void> {
  const target = await startTarget();
  const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 5000 });
  const probeTarget: ProbeTarget = { url: target.url, family: "ethereum", network: "ethereum-mainnet" };
  const probe = (): Promise<ProbeResult> => probeEndpoint(probeTarget, client, { finality: false });
  try {
    // Warm-up: JIT, curl binary in page cache.
    for (let i = 0; i < 20; i++) {
      await probe();
      await curlTtfbMs(target.url);
    }
    const ours: number[] = [];
    const curl: number[] = [];
    for (let i = 0; i < N; i++) {
      // Alternate who goes first so drift hits both sides equally.
      if (i % 2 === 0) {
        ours.push((await probe()).phases?.ttfbMs ?? NaN);
        curl.push(await curlTtfbMs(target.url));
      } else {
        curl.push(await curlTtfbMs(target.url));
        ours.push((await probe()).phases?.ttfbMs ?? NaN);
      }
    }
    const sequential: number[] = [];
    for (let i = 0; i < N; i++) sequential.push((await probe()).phases?.ttfbMs ?? NaN);
    let failures = 0;
    let peak = 0;
    const atConcurrency = async (spreadMs: number): Promise<number[]> => {
      const out: number[] = [];
      const scheduler = createProbeScheduler<ProbeTarget, ProbeResult>({
        concurrency: CONCURRENCY,
        intervalMs: 1000,
        jitter: 0,
        run: () => {
          peak = Math.max(peak, scheduler.inFlight());
          return probe();
        },
        onResult: (_t, r) => (r?.ok && r.phases ? out.push(r.phases.ttfbMs) : failures++),
      });
      await scheduler.runRound(
        Array.from({ length: N }, () => ({ ...probeTarget })),
        spreadMs,
      );
      return out;
    };
    // Production mode: a round's starts are spread (stratified jitter) at the rate that keeps
    // CONCURRENCY probes in flight on average: N probes x delay / CONCURRENCY.
    const spreadMs = (N * (DELAY_MS + 1)) / CONCURRENCY;
    const concurrent = await atConcurrency(spreadMs);
    const spreadPeak = peak;
    peak = 0;
    // Worst case: all N queued at once, so batches of CONCURRENCY start and finish in lock-step.
    const burst = await atConcurrency(0);

    const medOurs = quantile(ours, 0.5) ?? NaN;
    const medCurl = quantile(curl, 0.5) ?? NaN;
    const medSeq = quantile(sequential, 0.5) ?? NaN;
    const medConc = quantile(concurrent, 0.5) ?? NaN;
    const rows: Array<[string, number | null, number | null, number | null, number]> = [
      ["curl time_starttransfer", quantile(curl, 0.5), quantile(curl, 0.95), quantile(curl, 0.99), curl.length],
      ["ours ttfbMs (interleaved)", quantile(ours, 0.5), quantile(ours, 0.95), quantile(ours, 0.99), ours.length],
      [
        "ours sequential",
        quantile(sequential, 0.5),
        quantile(sequential, 0.95),
        quantile(sequential, 0.99),
        sequential.length,
      ],
      [
        `conc ${CONCURRENCY}, spread (peak ${spreadPeak})`,
        quantile(concurrent, 0.5),
        quantile(concurrent, 0.95),
        quantile(concurrent, 0.99),
        concurrent.length,
      ],
      [
        `conc ${CONCURRENCY}, lock-step burst`,
        quantile(burst, 0.5),
        quantile(burst, 0.95),
        quantile(burst, 0.99),
        burst.length,
      ],
    ];
    console.log(
      `\nprobe precision: loopback target (own process) adding ${DELAY_MS} ms, N=${N}, node ${process.version}\n`,
    );
    console.log(
      `${"series".padEnd(34)}${"p50 ms".padStart(10)}${"p95 ms".padStart(10)}${"p99 ms".padStart(10)}${"n".padStart(6)}`,
    );
    for (const [name, p50, p95, p99, n] of rows)
      console.log(
        `${name.padEnd(34)}${fmt(p50).padStart(10)}${fmt(p95).padStart(10)}${fmt(p99).padStart(10)}${String(n).padStart(6)}`,
      );
    const ratio = medOurs / medCurl;
    const inflation = medConc / medSeq;
    const burstInflation = (quantile(burst, 0.5) ?? NaN) / medSeq;
    console.log("");
    console.log(
      `ratio median(ours)/median(curl)          ${ratio.toFixed(4)}   goal [0.90, 1.10]  ${ratio >= 0.9 && ratio <= 1.1 ? "PASS" : "FAIL"}`,
    );
    console.log(
      `overhead median(ours)-median(curl)       ${(medOurs - medCurl).toFixed(3)} ms   goal <= 0.5 ms  ${medOurs - medCurl <= 0.5 ? "PASS" : "FAIL"}`,
    );
    console.log(
      `inflation p50(conc ${CONCURRENCY}, spread)/p50(seq) ${inflation.toFixed(4)}   goal <= 1.10       ${inflation <= 1.1 ? "PASS" : "FAIL"}`,
    );
    console.log(
      `inflation p50(conc ${CONCURRENCY}, burst)/p50(seq)  ${burstInflation.toFixed(4)}   (worst case, informational)`,
    );
    if (failures) console.log(`failed probes at concurrency: ${failures}`);
    process.exitCode = ratio >= 0.9 && ratio <= 1.1 && inflation <= 1.1 && failures === 0 ? 0 : 1;
  } finally {
    target.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
