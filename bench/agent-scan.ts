/**
 * Agent socket-scan benchmark (not part of the test suite).
 *
 *   npm run build -w @rpcpulse/agent && node --import tsx bench/agent-scan.ts [--sockets 20000] [--tw-share 0.3] [--rounds 9] [--cycles 6] [--interval 10]
 *
 * 1. Opens about --sockets TCP sockets on loopback: ESTABLISHED pairs held by helper processes
 *    (each stays under its RLIMIT_NOFILE) plus client-closed connections left in TIME_WAIT.
 * 2. Interleaves `cat /proc/net/tcp /proc/net/tcp6 > /dev/null` and the agent's full TCP scan
 *    (TcpScanner.scan: both files, states, TIME_WAIT split, per-IP and per-destination tables),
 *    --rounds times each, and prints medians and the ratio (goal G11: <= 2.0).
 * 3. Runs the bundled agent (`dist/rpcpulse-agent.mjs collect --interval 10s`) for --cycles cycles and
 *    measures its CPU from /proc/<pid>/stat (utime+stime) over the steady-state window, and its RSS,
 *    next to a bare `node -e "setInterval(...)"` process (goals G9 <= 1 % of a core, G10 <= 64 MB).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { dirname, resolve } from "node:path";
import { TcpScanner } from "../apps/agent/src/collect/proc-net-tcp.js";
import { readPortRange } from "../apps/agent/src/collect/settings.js";

// Works whether tsx loads this file as CommonJS (no "type" at the root) or as ESM.
const HERE = resolve(process.argv[1]!);
const BUNDLE = resolve(dirname(HERE), "../apps/agent/dist/rpcpulse-agent.mjs");

async function holder(connections: number, timeWait: number): Promise<void> {
  const kept: net.Socket[] = [];
  const server = net.createServer((s) => {
    s.on("error", () => {});
    kept.push(s);
  });
  server.listen(0, "127.0.0.1", 4096);
  await once(server, "listening");
  const port = (server.address() as net.AddressInfo).port;
  const open = async (n: number, close: boolean): Promise<void> => {
    for (let done = 0; done < n;) {
      const batch = Math.min(200, n - done);
      await Promise.all(
        Array.from({ length: batch }, async () => {
          const c = net.connect(port, "127.0.0.1");
          c.on("error", () => {});
          await once(c, "connect");
          if (close) {
            c.end();
            await once(c, "close");
          } else kept.push(c);
        }),
      );
      done += batch;
    }
  };
  await open(connections, false);
  await open(timeWait, true);
  process.stdout.write("ready\n");
  await new Promise(() => {}); // hold until killed
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function countSockets(): number {
  let n = 0;
  for (const f of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    try {
      n += readFileSync(f, "latin1").split("\n").length - 2;
    } catch {
      /* absent */
    }
  }
  return n;
}

function procCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in USER_HZ (100 on Linux)
}

function procRssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "latin1"));
  return m ? Number(m[1]) * 1024 : 0;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      holder: { type: "string" },
      sockets: { type: "string", default: "20000" },
      "tw-share": { type: "string", default: "0.3" },
      rounds: { type: "string", default: "9" },
      cycles: { type: "string", default: "6" },
      interval: { type: "string", default: "10" },
    },
  });
  if (values.holder) {
    const [c, t] = values.holder.split(",").map(Number);
    return holder(c!, t!);
  }
  const target = Number(values.sockets);
  const twShare = Number(values["tw-share"]);
  const rounds = Number(values.rounds);
  const cycles = Number(values.cycles);
  const intervalS = Number(values.interval);

  const baseline = countSockets();
  const timeWait = Math.round(target * twShare);
  const connections = Math.round((target - timeWait) / 2); // each connection is two sockets
  const perHolder = 4000; // 8,001 fds per helper, below the usual 20k/1M limits
  const holders: ChildProcess[] = [];
  for (let left = connections, tw = timeWait; left > 0 || tw > 0;) {
    const c = Math.min(perHolder, left);
    const t = Math.min(Math.ceil(timeWait / Math.max(1, Math.ceil(connections / perHolder))), tw);
    left -= c;
    tw -= t;
    const child = spawn(process.execPath, ["--import", "tsx", HERE, "--holder", `${c},${t}`], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    holders.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once("data", () => resolve());
      child.once("exit", (code) => reject(new Error(`holder exited with ${code}`)));
    });
  }
  const cleanup = (): void => {
    for (const h of holders) h.kill("SIGKILL");
  };
  process.on("exit", cleanup);
  const sockets = countSockets();
  console.log(
    `sockets in /proc/net/tcp{,6}: ${sockets} (baseline ${baseline}; asked ${target}: ${connections} connections + ${timeWait} TIME_WAIT)`,
  );

  const scanner = new TcpScanner();
  const portRange = readPortRange("/proc");
  scanner.scan({ publicPorts: null, topN: 20, portRange }); // warm-up (JIT, buffers)
  spawnSync("cat", ["/proc/net/tcp", "/proc/net/tcp6"], { stdio: "ignore" });
  const catMs: number[] = [];
  const scanMs: number[] = [];
  const scanCpuMs: number[] = [];
  let lastTotal = 0;
  for (let i = 0; i < rounds; i++) {
    let t = process.hrtime.bigint();
    const r = spawnSync("cat", ["/proc/net/tcp", "/proc/net/tcp6"], { stdio: "ignore" });
    if (r.status !== 0) throw new Error("cat failed");
    catMs.push(Number(process.hrtime.bigint() - t) / 1e6);
    const cpu0 = process.cpuUsage();
    t = process.hrtime.bigint();
    const res = scanner.scan({ publicPorts: null, topN: 20, portRange });
    scanMs.push(Number(process.hrtime.bigint() - t) / 1e6);
    const cpu = process.cpuUsage(cpu0);
    scanCpuMs.push((cpu.user + cpu.system) / 1000);
    lastTotal = res.tcp.total;
  }
  const ratio = median(scanMs) / median(catMs);
  console.log(
    `cat /proc/net/tcp{,6}: median ${median(catMs).toFixed(1)} ms (min ${Math.min(...catMs).toFixed(1)}, max ${Math.max(...catMs).toFixed(1)}), ${rounds} runs`,
  );
  console.log(
    `agent TCP scan:        median ${median(scanMs).toFixed(1)} ms (min ${Math.min(...scanMs).toFixed(1)}, max ${Math.max(...scanMs).toFixed(1)}), CPU ${median(scanCpuMs).toFixed(1)} ms, ${lastTotal} sockets`,
  );
  console.log(`ratio scan/cat (median): ${ratio.toFixed(2)}  [goal <= 2.0] ${ratio <= 2 ? "PASS" : "FAIL"}`);

  if (cycles > 0) {
    if (!existsSync(BUNDLE))
      throw new Error(`build the agent first: npm run build -w @rpcpulse/agent (${BUNDLE} missing)`);
    const agent = spawn(process.execPath, [BUNDLE, "collect", "--interval", `${intervalS}s`, "--top-n", "100"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const bare = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    let lines = 0;
    let lastSample: { self?: { collectMs?: number }; tcp?: { scanMs?: number; total?: number } } = {};
    agent.stdout!.setEncoding("utf8");
    let buf = "";
    agent.stdout!.on("data", (d: string) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        lastSample = JSON.parse(buf.slice(0, nl)) as typeof lastSample;
        buf = buf.slice(nl + 1);
        lines++;
      }
    });
    const waitLines = async (n: number): Promise<void> => {
      while (lines < n) await new Promise((r) => setTimeout(r, 50));
    };
    // Start-up (bundle load, JIT warm-up) and the first two samples are excluded from the steady-state window.
    const warmup = 3;
    await waitLines(warmup);
    const cpu0 = procCpuSeconds(agent.pid!);
    const t0 = Date.now();
    const rss: number[] = [];
    for (let i = 1; i <= cycles; i++) {
      await waitLines(warmup + i);
      rss.push(procRssBytes(agent.pid!));
    }
    const cpu = procCpuSeconds(agent.pid!) - cpu0;
    const wall = (Date.now() - t0) / 1000;
    rss.sort((a, b) => b - a); // rss[0] = the largest seen after a cycle
    const bareRss = procRssBytes(bare.pid!);
    agent.kill();
    bare.kill();
    const pct = (cpu / wall) * 100;
    const mb = rss[0]! / 1048576;
    console.log(
      `agent at ${intervalS}s interval: CPU ${pct.toFixed(2)} % of one core over ${cycles} cycles (${wall.toFixed(0)} s, ${(cpu * 1000).toFixed(0)} ms CPU)  [goal <= 1 %] ${pct <= 1 ? "PASS" : "FAIL"}`,
    );
    console.log(
      `  last sample: collectMs ${lastSample.self?.collectMs}, tcp.scanMs ${lastSample.tcp?.scanMs}, tcp.total ${lastSample.tcp?.total}`,
    );
    console.log(
      `agent RSS ${mb.toFixed(1)} MB vs bare node ${(bareRss / 1048576).toFixed(1)} MB (ratio ${(rss[0]! / bareRss).toFixed(2)})  [goal <= 64 MB] ${mb <= 64 ? "PASS" : "FAIL"}`,
    );
  }
  cleanup();
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
