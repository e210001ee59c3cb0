/**
 * Sustained probe throughput with bounded concurrency against simnet (its own process, 40 nodes of
 * all four families, 5-40 ms latency): full head probes (finality included, so Ethereum/Sidecar
 * make 2 requests and Substrate 3), each on fresh connections, through createProbeScheduler.
 *
 *   node --import tsx bench/probe-throughput.ts                  (30 s flat out, then 15 s paced at 100/s)
 *   SECONDS=60 CONCURRENCY=64 node --import tsx bench/probe-throughput.ts
 *
 * Goal (performance.md G12): >= 100 probes/s sustained; prober CPU <= 50 % of one core at 100/s.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { ApiFamily } from "@rpcpulse/domain";
import {
  createProbeScheduler,
  createSafeHttpClient,
  probeEndpoint,
  quantile,
  type ProbeResult,
  type ProbeTarget,
} from "@rpcpulse/prober";

const SECONDS = Number(process.env.SECONDS ?? 30);
const PACED_SECONDS = Number(process.env.PACED_SECONDS ?? 15);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const NODES = Number(process.env.NODES ?? 40);

const FAMILIES: Array<{ family: ApiFamily; network: string }> = [
  { family: "hive", network: "hive" },
  { family: "ethereum", network: "ethereum-mainnet" },
  { family: "substrate", network: "polkadot" },
  { family: "sidecar", network: "polkadot" },
];

async function startSimnetProcess(dir: string): Promise<{ targets: ProbeTarget[]; pid: number; stop(): void }> {
  const nodes = Array.from({ length: NODES }, (_, i) => {
    const f = FAMILIES[i % FAMILIES.length] ?? FAMILIES[0]!;
    return { name: `n${i}`, family: f.family, network: f.network, latency: { kind: "uniform", minMs: 5, maxMs: 40 } };
  });
  const config = join(dir, "simnet.json");
  writeFileSync(config, JSON.stringify({ seed: "bench", nodes }));
  const child = spawn(process.execPath, ["--import", "tsx", "packages/simnet/src/cli.ts", "--config", config], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const targets: ProbeTarget[] = [];
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const [, family, network, url] = line.trim().split(/\s+/);
    if (url?.startsWith("http")) targets.push({ url, family: family as ApiFamily, network: network ?? "" });
    if (targets.length === NODES) break;
  }
  return { targets, pid: child.pid ?? 0, stop: () => child.kill() };
}

/** CPU seconds (user+system) of a process, from /proc. */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

interface Phase {
  name: string;
  seconds: number;
  probes: number;
  ok: number;
  rate: number;
  p50: number | null;
  p95: number | null;
  cpuPct: number;
  simCpuPct: number;
  rssMb: number;
}

async function runPhase(
  name: string,
  targets: ProbeTarget[],
  simPid: number,
  seconds: number,
  intervalMs: number,
  jitter: number,
): Promise<Phase> {
  const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 5000 });
  let ok = 0;
  let probes = 0;
  const ttfb: number[] = [];
  const errors = new Map<string, number>();
  const scheduler = createProbeScheduler<ProbeTarget, ProbeResult>({
    concurrency: CONCURRENCY,
    intervalMs,
    jitter,
    run: (t) => probeEndpoint(t, client),
    onResult: (_t, r) => {
      probes++;
      if (r?.ok) {
        ok++;
        if (r.phases && ttfb.length < 200_000) ttfb.push(r.phases.ttfbMs);
      } else errors.set(r?.errorClass ?? "thrown", (errors.get(r?.errorClass ?? "thrown") ?? 0) + 1);
    },
  });
  const cpu0 = process.cpuUsage();
  const sim0 = cpuSecondsOf(simPid);
  const t0 = performance.now();
  scheduler.start(targets);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  await scheduler.stop();
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (errors.size) console.log(`${name}: errors ${JSON.stringify(Object.fromEntries(errors))}`);
  return {
    name,
    seconds: wall,
    probes,
    ok,
    rate: ok / wall,
    p50: quantile(ttfb, 0.5),
    p95: quantile(ttfb, 0.95),
    cpuPct: ((cpu.user + cpu.system) / 1e6 / wall) * 100,
    simCpuPct: ((cpuSecondsOf(simPid) - sim0) / wall) * 100,
    rssMb: process.memoryUsage().rss / 1048576,
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "probe-bench-"));
  const sim = await startSimnetProcess(dir);
  try {
    // Warm-up round (JIT, simnet runtime snapshot).
    await runPhase("warm-up", sim.targets, sim.pid, 2, 50, 0);
    // Flat out: every target is re-probed as soon as its previous probe finished (interval 10 ms).
    const flat = await runPhase(`flat out, concurrency ${CONCURRENCY}`, sim.targets, sim.pid, SECONDS, 10, 0.5);
    // Paced: 40 targets every 400 ms = 100 probes/s offered, starts spread over 80 % of the interval.
    const paced = await runPhase(
      "paced, 100/s offered",
      sim.targets,
      sim.pid,
      PACED_SECONDS,
      (sim.targets.length / 100) * 1000,
      0.8,
    );
    console.log(
      `\nprobe throughput: ${sim.targets.length} simnet nodes (own process), uniform 5-40 ms latency, node ${process.version}\n`,
    );
    const head = ["phase", "secs", "probes", "ok", "ok/s", "ttfb p50", "ttfb p95", "CPU %", "simnet CPU %", "RSS MB"];
    const widths = [30, 6, 8, 8, 8, 10, 10, 7, 13, 8];
    console.log(head.map((h, i) => (i === 0 ? h.padEnd(widths[i]!) : h.padStart(widths[i]!))).join(""));
    for (const p of [flat, paced]) {
      const cells = [
        p.name,
        p.seconds.toFixed(1),
        String(p.probes),
        String(p.ok),
        p.rate.toFixed(1),
        (p.p50 ?? NaN).toFixed(2),
        (p.p95 ?? NaN).toFixed(2),
        p.cpuPct.toFixed(1),
        p.simCpuPct.toFixed(1),
        p.rssMb.toFixed(0),
      ];
      console.log(cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(""));
    }
    const pass = flat.rate >= 100 && flat.ok === flat.probes;
    console.log(
      `\nsustained ${flat.rate.toFixed(1)} probes/s (goal >= 100): ${pass ? "PASS" : "FAIL"}; prober CPU at ~100/s: ${paced.cpuPct.toFixed(1)} % of one core (goal <= 50 %): ${paced.cpuPct <= 50 ? "PASS" : "FAIL"}`,
    );
    process.exitCode = pass ? 0 : 1;
  } finally {
    sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
