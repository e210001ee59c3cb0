import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { statfsSync } from "node:fs";
import { agentSampleSchema } from "@rpcpulse/domain";
import { collectSockstat, parseKeyValueLines } from "../src/collect/sockstat.js";
import { NetstatCollector, parseTcpExt } from "../src/collect/netstat.js";
import { HostCollector, parseCpuLine, parseMeminfo } from "../src/collect/host.js";
import { SettingsCollector, findTwRecycleLines, readPortRange } from "../src/collect/settings.js";
import { FdsCollector, parseOpenFilesLimit } from "../src/collect/fds.js";
import { collectDisks } from "../src/collect/disks.js";
import { collectConntrack } from "../src/collect/conntrack.js";
import { TcpScanner } from "../src/collect/proc-net-tcp.js";
import { Sampler } from "../src/collect/sampler.js";
import { errorMessage } from "../src/collect/proc-files.js";

function tempRoot(): string {
  return mkdtempSync(join(tmpdir(), "rpcpulse-agent-test-"));
}

test("sockstat: the kernel's line format, mem converted with the page size", () => {
  const root = tempRoot();
  try {
    mkdirSync(join(root, "net"));
    writeFileSync(
      join(root, "net/sockstat"),
      "sockets: used 1234\nTCP: inuse 40 orphan 2 tw 17000 alloc 60 mem 186\nUDP: inuse 3 mem 1\nFRAG: inuse 0 memory 0\n",
    );
    writeFileSync(join(root, "net/sockstat6"), "TCP6: inuse 12\nUDP6: inuse 1\n");
    assert.deepEqual(collectSockstat(root, 4096), {
      socketsUsed: 1234,
      tcpInuse: 40,
      tcpOrphan: 2,
      tcpTw: 17000,
      tcpAlloc: 60,
      tcpMemPages: 186,
      tcpMemBytes: 186 * 4096,
      tcp6Inuse: 12,
    });
  } finally {
    rmSync(root, { recursive: true });
  }
  // And the real file of this machine.
  const real = collectSockstat("/proc", 4096);
  assert.ok(real && real.tcpInuse >= 0 && real.tcpTw >= 0);
  assert.equal(parseKeyValueLines("TCP: inuse 1 orphan 2").get("TCP.orphan"), 2);
});

test("netstat: TcpExt deltas between samples, null first, a counter reset is reported", () => {
  const text = (lo: number, ld: number, tw: number) =>
    `TcpExt: SyncookiesSent ListenOverflows ListenDrops TCPTimeWaitOverflow TW\nTcpExt: 0 ${lo} ${ld} ${tw} 99\nIpExt: InNoRoutes\nIpExt: 0\n`;
  const c = new NetstatCollector("/nonexistent");
  const first = c.fromText(text(10, 12, 0), 1000);
  assert.deepEqual(first.listenOverflows, { total: 10, delta: null });
  assert.equal(first.intervalMs, null);
  const second = c.fromText(text(15, 20, 3), 11_000);
  assert.deepEqual(second.listenOverflows, { total: 15, delta: 5 });
  assert.deepEqual(second.listenDrops, { total: 20, delta: 8 });
  assert.deepEqual(second.tcpTimeWaitOverflow, { total: 3, delta: 3 });
  assert.equal(second.intervalMs, 10_000);
  assert.equal(second.counterReset, false);
  const afterReboot = c.fromText(text(2, 25, 3), 21_000);
  assert.deepEqual(afterReboot.listenOverflows, { total: 2, delta: 2 });
  assert.deepEqual(afterReboot.listenDrops, { total: 25, delta: 5 });
  assert.equal(afterReboot.counterReset, true);
  assert.throws(() => c.fromText("TcpExt: A\nTcpExt: 1\n", 0), /ListenOverflows missing/);
  // The real file has all three counters.
  const real = parseTcpExt(readFileSync("/proc/net/netstat", "latin1"));
  for (const k of ["ListenOverflows", "ListenDrops", "TCPTimeWaitOverflow"]) assert.ok(real.has(k), k);
});

test("host: CPU % from /proc/stat deltas, meminfo in bytes, swap used", () => {
  const cpu = parseCpuLine(
    "cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 50 0 25 400 25 0 0 0 0 0\ncpu1 50 0 25 400 25 0 0 0 0 0\n",
  );
  assert.deepEqual(cpu, { busy: 150, total: 1000, cpuCount: 2 });
  const mem = parseMeminfo(
    "MemTotal:       24684632 kB\nMemAvailable:   23000000 kB\nShmem:            95320 kB\nSwapTotal:       1000 kB\nSwapFree:         250 kB\nHugePages_Total:       0\n",
  );
  assert.equal(mem.get("MemTotal"), 24684632 * 1024);
  assert.equal(mem.get("HugePages_Total"), 0);
  const root = tempRoot();
  try {
    const write = (stat: string) => {
      writeFileSync(join(root, "stat"), stat);
      writeFileSync(
        join(root, "meminfo"),
        "MemTotal: 2000 kB\nMemAvailable: 1000 kB\nShmem: 10 kB\nSwapTotal: 1000 kB\nSwapFree: 250 kB\n",
      );
      writeFileSync(join(root, "loadavg"), "0.52 0.38 0.24 2/143 13417\n");
      writeFileSync(join(root, "uptime"), "934.93 1800.00\n");
    };
    const h = new HostCollector(root);
    write("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1\n");
    const a = h.collect()!;
    assert.equal(a.cpuPct, null);
    write("cpu  160 0 80 1000 60 0 0 0 0 0\ncpu0 1\n"); // +90 busy of +300 total
    const b = h.collect()!;
    assert.equal(b.cpuPct, 30);
    assert.equal(b.swapUsedBytes, 750 * 1024);
    assert.equal(b.memAvailableBytes, 1000 * 1024);
    assert.deepEqual([b.load1, b.load5, b.load15, b.uptimeSeconds], [0.52, 0.38, 0.24, 934.93]);
  } finally {
    rmSync(root, { recursive: true });
  }
});

test("settings: sysctl values and every file line that still sets tcp_tw_recycle", () => {
  assert.deepEqual(
    findTwRecycleLines(
      "# net.ipv4.tcp_tw_recycle = 1\nnet.ipv4.tcp_tw_reuse=1\n  net.ipv4.tcp_tw_recycle = 1\n-net/ipv4/tcp_tw_recycle=0\n; net.ipv4.tcp_tw_recycle=1\n",
    ),
    [
      { line: 3, text: "net.ipv4.tcp_tw_recycle = 1" },
      { line: 4, text: "-net/ipv4/tcp_tw_recycle=0" },
    ],
  );
  const root = tempRoot();
  try {
    mkdirSync(join(root, "etc/sysctl.d"), { recursive: true });
    mkdirSync(join(root, "usr/lib/sysctl.d"), { recursive: true });
    mkdirSync(join(root, "proc/sys/net/ipv4"), { recursive: true });
    mkdirSync(join(root, "proc/sys/net/core"), { recursive: true });
    writeFileSync(join(root, "etc/sysctl.conf"), "vm.swappiness=10\nnet.ipv4.tcp_tw_recycle=1\n");
    writeFileSync(join(root, "etc/sysctl.d/90-rpc.conf"), "net.ipv4.tcp_fin_timeout = 30\n");
    writeFileSync(join(root, "etc/sysctl.d/README"), "net.ipv4.tcp_tw_recycle=1\n"); // not a .conf file: ignored
    writeFileSync(join(root, "usr/lib/sysctl.d/50-old.conf"), "\n\nnet.ipv4.tcp_tw_recycle = 1\n");
    writeFileSync(join(root, "proc/sys/net/ipv4/tcp_tw_reuse"), "2\n");
    writeFileSync(join(root, "proc/sys/net/ipv4/ip_local_port_range"), "32768\t60999\n");
    writeFileSync(join(root, "proc/sys/net/core/somaxconn"), "4096\n");
    const s = new SettingsCollector(join(root, "proc"), root).collect();
    assert.equal(s.tcpTwReuse, 2);
    assert.equal(s.somaxconn, 4096);
    assert.equal(s.tcpFinTimeout, null, "absent file → null");
    assert.deepEqual(s.ipLocalPortRange, { low: 32768, high: 60999, size: 28232 });
    assert.deepEqual(s.tcpTwRecycleLines, [
      { file: join(root, "etc/sysctl.conf"), line: 2, text: "net.ipv4.tcp_tw_recycle=1" },
      { file: join(root, "usr/lib/sysctl.d/50-old.conf"), line: 3, text: "net.ipv4.tcp_tw_recycle = 1" },
    ]);
  } finally {
    rmSync(root, { recursive: true });
  }
  const real = readPortRange("/proc");
  assert.ok(real && real.size === real.high - real.low + 1);
});

test("fds: system file-nr and a process found by pid or by name, with its open-files limit", () => {
  assert.deepEqual(
    parseOpenFilesLimit(
      "Limit Soft Hard Units\nMax open files            1024                 524288               files\n",
    ),
    { soft: 1024, hard: 524288 },
  );
  const byPid = new FdsCollector("/proc", { pid: process.pid }).collect()!;
  assert.ok(byPid.systemMax > 0 && byPid.systemAllocated > 0);
  const open = readdirSync("/proc/self/fd").length;
  assert.ok(byPid.process && Math.abs(byPid.process.openFds - open) <= 2, `${byPid.process?.openFds} vs ${open}`);
  assert.ok(byPid.process.softLimit !== null && byPid.process.softLimit > 0);
  const comm = readFileSync(`/proc/${process.pid}/comm`, "latin1").trim();
  const byName = new FdsCollector("/proc", { name: comm }).collect()!;
  assert.ok(byName.process && byName.process.name === comm);
  assert.equal(new FdsCollector("/proc", { name: "no-such-process-xyz" }).collect()!.process, null);
  assert.equal(new FdsCollector("/proc", null).collect()!.process, null);
});

test("disks: statfs figures match node's statfs; a missing path reports its error", () => {
  const [dir, missing] = collectDisks(["/", "/no/such/dir"]);
  const s = statfsSync("/");
  assert.equal(dir!.totalBytes, s.blocks * s.bsize);
  assert.equal(dir!.error, null);
  assert.equal(missing!.totalBytes, null);
  assert.match(missing!.error ?? "", /ENOENT/);
});

test("conntrack: count/max when the module is loaded, null otherwise", () => {
  assert.equal(collectConntrack("/nonexistent"), null);
  const real = collectConntrack("/proc");
  if (real) assert.ok(real.max > 0 && real.count >= 0);
});

test("tcp scanner on synthetic tables: byte order, IPv4-mapped IPv6, listeners in tcp6, malformed lines", () => {
  const root = tempRoot();
  try {
    mkdirSync(join(root, "net"));
    const h4 = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
    const row4 = (sl: number, l: string, r: string, st: string) =>
      `${String(sl).padStart(4)}: ${l} ${r} ${st} 00000000:00000000 00:00000000 00000000  1000        0 0 1 0000000000000000 100 0 0 10 0\n`;
    // 10.0.0.5:8545 (0x2161) established from 192.168.1.20 (LE hex 1401A8C0), TIME_WAIT from the same.
    writeFileSync(
      join(root, "net/tcp"),
      h4 +
        row4(0, "0500000A:2161", "00000000:0000", "0A") +
        row4(1, "0500000A:2161", "1401A8C0:C350", "01") +
        row4(2, "0500000A:2161", "1401A8C0:C351", "06") +
        row4(3, "0500000A:9C40", "0101A8C0:01BB", "06") + // outbound TIME_WAIT to 192.168.1.1:443
        "garbage line\n",
    );
    const h6 =
      "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
    const row6 = (sl: number, l: string, r: string, st: string) =>
      `${String(sl).padStart(4)}: ${l} ${r} ${st} 00000000:00000000 00:00000000 00000000  1000        0 0 1 0000000000000000 100 0 0 10 0\n`;
    // Dual-stack listener on [::]:8080 (0x1F90); a client 192.168.1.20 seen as ::ffff:192.168.1.20; one from 2001:db8::1.
    writeFileSync(
      join(root, "net/tcp6"),
      h6 +
        row6(0, "00000000000000000000000000000000:1F90", "00000000000000000000000000000000:0000", "0A") +
        row6(1, "0000000000000000FFFF00000500000A:1F90", "0000000000000000FFFF00001401A8C0:C352", "01") +
        row6(2, "00000000000000000000000001000000:1F90", "B80D0120000000000000000001000000:D000", "08"),
    );
    const scanner = new TcpScanner(root);
    const r = scanner.scan({ publicPorts: null, topN: 10, portRange: { low: 32768, high: 60999, size: 28232 } });
    assert.equal(scanner.malformedLines, 1);
    assert.deepEqual(r.tcp.listeningPorts, [8080, 8545]);
    assert.equal(r.tcp.states.listen, 2);
    assert.equal(r.tcp.states.established, 2);
    assert.equal(r.tcp.states.closeWait, 1);
    assert.equal(r.tcp.timeWaitInbound, 1);
    assert.equal(r.tcp.timeWaitOutbound, 1);
    assert.deepEqual([r.tcp.ipv4, r.tcp.ipv6, r.tcp.total], [4, 3, 7]);
    assert.deepEqual(r.remoteIps.top, [
      { ip: "192.168.1.20", connections: 2, established: 2, timeWait: 1 },
      { ip: "2001:db8::1", connections: 1, established: 0, timeWait: 0 },
    ]);
    assert.deepEqual(r.outbound.top, [
      { ip: "192.168.1.1", port: 443, sockets: 1, established: 0, timeWait: 1, portRangeUsage: 0.000035 },
    ]);
  } finally {
    rmSync(root, { recursive: true });
  }
});

test("a full sample from this machine is valid wire format", async () => {
  const sampler = new Sampler({
    publicPorts: null,
    topN: 100,
    dataDirs: [tmpdir()],
    process: { pid: process.pid },
    chain: null,
  });
  const first = agentSampleSchema.parse(await sampler.collect());
  assert.equal(first.host?.cpuPct, null);
  assert.deepEqual(first.errors, []);
  assert.deepEqual(
    first.disks.map((d) => d.path),
    [tmpdir(), "/dev/shm"],
  );
  await new Promise((r) => setTimeout(r, 50));
  const second = agentSampleSchema.parse(await sampler.collect());
  assert.ok(second.host?.cpuPct !== null && second.self?.cpuPct !== null);
  assert.ok(second.netstat?.listenOverflows.delta !== null);
  assert.ok(second.self!.rssBytes > 0);
});

test("errorMessage names the reasons of a connect that failed on every address of a name", async () => {
  const { createServer } = await import("node:net");
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const { request } = await import("node:http");
  // "localhost" has two addresses here (::1 and 127.0.0.1): Node reports an AggregateError with an empty message.
  const error = await new Promise<unknown>((resolve) => {
    const req = request({ host: "localhost", port, path: "/" }, () => resolve(null));
    req.on("error", resolve);
    req.end();
  });
  const text = errorMessage(error);
  assert.ok(text.length > 0, "an empty reason tells the operator nothing");
  assert.match(text, /ECONNREFUSED/);
  assert.equal(errorMessage(new AggregateError([new Error("a"), new Error("a"), new Error("b")], "")), "a; b");
  assert.equal(errorMessage(Object.assign(new Error(""), { code: "EPIPE" })), "EPIPE");
});
