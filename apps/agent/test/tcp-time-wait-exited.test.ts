import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import net from "node:net";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RECENT_LISTEN_MS, TcpScanner } from "../src/collect/proc-net-tcp.js";
import { readPortRange } from "../src/collect/settings.js";
import { ssAvailable } from "./helpers/ss.js";
import { waitFor } from "@rpcpulse/config/testing";
import { connect, listen } from "./helpers/sockets.js";

/**
 * TIME_WAIT left by servers that have exited, on real loopback sockets: each server accepts K
 * connections and closes them first (TIME_WAIT lands on the side that closes first, here the
 * server's port), then stops listening. E sits on an ephemeral port (listen(0)), B on a port below
 * the ephemeral range. The kernel's table is cut down to these sockets (same lines as /proc/net/tcp*)
 * so other processes on the machine cannot disturb the counts, and `ss -tan state time-wait`
 * confirms what the kernel holds.
 */

const K = 8;
const portRange = readPortRange("/proc");
const dirs: string[] = [];
let portE = 0;
let portB = 0;
let listening: string;
let exited: string;
/** The agent's scanner that saw E and B listening (its memory of listening ports). */
const warm = new TcpScanner();
const T = 1_000_000;

/** /proc/net/tcp and tcp6 reduced to the sockets with one of these local or remote ports. */
function snapshot(ports: readonly number[]): string {
  const dir = mkdtempSync(join(tmpdir(), "rpcpulse-tw-"));
  dirs.push(dir);
  mkdirSync(join(dir, "net"));
  const hex = new Set(ports.map((p) => p.toString(16).toUpperCase().padStart(4, "0")));
  for (const file of ["tcp", "tcp6"]) {
    const [header, ...lines] = readFileSync(`/proc/net/${file}`, "utf8").split("\n");
    const keep = lines.filter((l) => {
      const f = l.trim().split(/\s+/);
      return f.length > 3 && (hex.has(f[1]!.split(":")[1]!) || hex.has(f[2]!.split(":")[1]!));
    });
    writeFileSync(join(dir, "net", file), [header, ...keep, ""].join("\n"));
  }
  return dir;
}

/** `ss -Htan state <state> '( sport = :P or ... )'` line count. */
function ssCount(state: string, ports: readonly number[]): number {
  const filter = `( ${ports.map((p) => `sport = :${p}`).join(" or ")} )`;
  return execFileSync("ss", ["-Htan", "state", state, filter], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.trim() !== "").length;
}

async function freePortBelow(limit: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * Math.min(8_000, limit - 20_000));
    const probe = net.createServer();
    const ok = await new Promise<boolean>((resolve) => {
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => resolve(true));
    });
    if (ok) {
      await new Promise((r) => probe.close(r));
      return port;
    }
  }
  throw new Error("no free port below the ephemeral range");
}

/** A server that closes every connection first, K clients, then the server stops listening. */
async function serverClosesFirstThenExits(server: net.Server, port: number): Promise<void> {
  const accepted: net.Socket[] = [];
  server.on("connection", (s) => {
    s.on("error", () => {});
    accepted.push(s);
  });
  const clientsGone: Promise<unknown>[] = [];
  for (let i = 0; i < K; i++) {
    const c = await connect(port, "127.0.0.1");
    c.on("error", () => {});
    clientsGone.push(once(c, "close"));
  }
  await waitFor("accepted", () => accepted.length === K);
  for (const s of accepted) s.end(); // the server closes first: TIME_WAIT on the server's port
  await Promise.all(clientsGone);
  await new Promise((r) => server.close(r));
}

before(async () => {
  assert.ok(ssAvailable(), "ss (iproute2) is required: apt-get install -y iproute2");
  assert.ok(portRange, "ip_local_port_range readable");
  const e = net.createServer();
  portE = await listen(e, "127.0.0.1");
  const b = net.createServer();
  portB = await freePortBelow(portRange.low);
  b.listen(portB, "127.0.0.1");
  await once(b, "listening");
  listening = snapshot([portE, portB]);
  warm.scan({ procRoot: listening, publicPorts: null, topN: 10, portRange, nowMs: T });
  await serverClosesFirstThenExits(e, portE);
  await serverClosesFirstThenExits(b, portB);
  await waitFor("server-side TIME_WAIT", () => ssCount("time-wait", [portE, portB]) === 2 * K);
  exited = snapshot([portE, portB]);
});

after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test("the kernel holds the servers' TIME_WAIT on ports that no longer listen (ss agrees)", () => {
  assert.equal(ssCount("listening", [portE, portB]), 0, "both servers stopped listening");
  assert.equal(ssCount("time-wait", [portE]), K);
  assert.equal(ssCount("time-wait", [portB]), K);
  assert.ok(portE >= portRange!.low && portE <= portRange!.high, `listen(0) gave an ephemeral port: ${portE}`);
  assert.ok(portB < portRange!.low);
});

test("TIME_WAIT of an exited server counts inbound: its port listened recently, or is not ephemeral", () => {
  const r = warm.scan({ procRoot: exited, publicPorts: null, topN: 100, portRange, nowMs: T + 60_000 });
  assert.equal(r.tcp.states.timeWait, 2 * K);
  assert.equal(r.tcp.timeWaitInbound, ssCount("time-wait", [portE, portB]), "every one of them, as ss lists them");
  assert.equal(r.tcp.timeWaitOutbound, 0);
  assert.deepEqual(r.tcp.listeningPorts, [], "listeningPorts reports only what listens now");
  assert.equal(r.outbound.totalSockets, 0, "no outbound destination made of the clients' ports");
});

test("without the memory: the range still places B inbound; E (ephemeral) only by memory", () => {
  const fresh = new TcpScanner().scan({ procRoot: exited, publicPorts: null, topN: 100, portRange, nowMs: T });
  assert.deepEqual([fresh.tcp.timeWaitInbound, fresh.tcp.timeWaitOutbound], [K, K]);
  const expired = warm.scan({
    procRoot: exited,
    publicPorts: null,
    topN: 100,
    portRange,
    nowMs: T + RECENT_LISTEN_MS + 1,
  });
  assert.deepEqual(
    [expired.tcp.timeWaitInbound, expired.tcp.timeWaitOutbound],
    [K, K],
    "memory lasts RECENT_LISTEN_MS",
  );
  const noRange = new TcpScanner().scan({ procRoot: exited, publicPorts: null, topN: 100, portRange: null });
  assert.deepEqual([noRange.tcp.timeWaitInbound, noRange.tcp.timeWaitOutbound], [0, 2 * K], "the old count");
});
