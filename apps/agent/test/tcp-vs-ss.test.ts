import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { once } from "node:events";
import { TcpScanner, type TcpScanResult } from "../src/collect/proc-net-tcp.js";
import { readPortRange } from "../src/collect/settings.js";
import { readSs, ssAvailable, type SsAggregate } from "./helpers/ss.js";
import { waitFor } from "@rpcpulse/config/testing";
import { connect, listen } from "./helpers/sockets.js";

/**
 * Real sockets on loopback, counted by the agent's /proc scanner and by `ss -tan` (netlink).
 * Layout:
 *  - dual-stack listener D ("::"): 30 clients from 127.0.0.1, 20 from 127.0.0.2, 10 from 127.0.0.3
 *    (seen as IPv4-mapped IPv6 in /proc/net/tcp6, must be reported as IPv4), 4 from ::1;
 *  - listener T (127.0.0.1): 10 connections closed by the client (TIME_WAIT on the client = outbound)
 *    and 12 closed by the server (TIME_WAIT on the server = inbound);
 *  - half-open listener H (127.0.0.1): 5 clients end(), the server never closes → CLOSE_WAIT on the
 *    server side, FIN_WAIT2 on the client side.
 */

const servers: net.Server[] = [];
const sockets: net.Socket[] = [];
let portD = 0;
let portT = 0;
let portH = 0;
let haveV6 = true;

before(async () => {
  assert.ok(ssAvailable(), "ss (iproute2) is required: apt-get install -y iproute2");
  const d = net.createServer((s) => sockets.push(s));
  try {
    portD = await listen(d, "::");
  } catch {
    haveV6 = false;
    portD = await listen(d, "0.0.0.0");
  }
  servers.push(d);
  for (const [ip, n] of [
    ["127.0.0.1", 30],
    ["127.0.0.2", 20],
    ["127.0.0.3", 10],
  ] as const) {
    for (let i = 0; i < n; i++) sockets.push(await connect(portD, "127.0.0.1", ip));
  }
  if (haveV6) for (let i = 0; i < 4; i++) sockets.push(await connect(portD, "::1"));

  const serverSide: net.Socket[] = [];
  const t = net.createServer((s) => {
    serverSide.push(s);
    s.on("error", () => {});
  });
  portT = await listen(t, "127.0.0.1");
  servers.push(t);
  const clientClosed: Promise<unknown>[] = [];
  for (let i = 0; i < 10; i++) {
    const c = await connect(portT, "127.0.0.1");
    clientClosed.push(once(c, "close"));
    c.end();
  }
  await Promise.all(clientClosed);
  await waitFor("server sides of client-closed connections", () => serverSide.length >= 10);
  const serverClosed: Promise<unknown>[] = [];
  const before = serverSide.length;
  const clients: net.Socket[] = [];
  for (let i = 0; i < 12; i++) {
    const c = await connect(portT, "127.0.0.1");
    c.on("error", () => {});
    clients.push(c);
    serverClosed.push(once(c, "close"));
  }
  await waitFor("server sides", () => serverSide.length >= before + 12);
  for (const s of serverSide.slice(before)) s.end();
  await Promise.all(serverClosed);

  const h = net.createServer({ allowHalfOpen: true }, (s) => {
    sockets.push(s); // kept open: never end()ed → CLOSE_WAIT once the client's FIN arrives
  });
  portH = await listen(h, "127.0.0.1");
  servers.push(h);
  for (let i = 0; i < 5; i++) {
    const c = await connect(portH, "127.0.0.1");
    sockets.push(c);
    c.end();
  }
  await waitFor("CLOSE_WAIT and FIN_WAIT2 on the half-open listener", () => {
    const r = readSs([portH]);
    return (r.remotes.get("127.0.0.1")?.[0] ?? 0) === 5 && r.states.closeWait! >= 5 && r.states.finWait2! >= 5;
  });
});

after(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

function toComparable(r: TcpScanResult): SsAggregate {
  return {
    states: { ...r.tcp.states },
    total: r.tcp.total,
    listeningPorts: r.tcp.listeningPorts,
    timeWaitInbound: r.tcp.timeWaitInbound,
    timeWaitOutbound: r.tcp.timeWaitOutbound,
    remotes: new Map(
      r.remoteIps.top.map((e) => [e.ip, [e.connections, e.established, e.timeWait] as [number, number, number]]),
    ),
    dests: new Map(
      r.outbound.top.map((e) => [
        `${e.ip}|${e.port}`,
        [e.sockets, e.established, e.timeWait] as [number, number, number],
      ]),
    ),
  };
}

test("the scan equals ss -tan at the same moment (all states, TIME_WAIT split, per-IP, per-destination)", () => {
  const portRange = readPortRange("/proc");
  // Other processes on this machine open and close sockets too: take ss before and after the scan
  // and compare only when both ss readings agree (the table did not change around our scan).
  for (let attempt = 1; attempt <= 30; attempt++) {
    // Fresh each time: ss has no memory of ports that listened in an earlier attempt.
    const scanner = new TcpScanner();
    const a = readSs(null, portRange);
    const ours = scanner.scan({ publicPorts: null, topN: 100, portRange });
    const b = readSs(null, portRange);
    if (!isDeepEqual(a, b)) continue;
    assert.equal(scanner.malformedLines, 0);
    const expected = { ...a };
    const got = toComparable(ours);
    assert.equal(ours.remoteIps.distinctIps, a.remotes.size, "distinct remote IPs");
    assert.equal(ours.outbound.distinctDestinations, a.dests.size, "distinct outbound destinations");
    if (a.remotes.size > 100) expected.remotes = got.remotes; // only the top 100 is reported; totals checked above
    if (a.dests.size > 100) expected.dests = got.dests;
    assert.deepEqual(got, expected);
    assert.equal(ours.tcp.ipv4 + ours.tcp.ipv6, ours.tcp.total);
    return;
  }
  assert.fail("the socket table never stayed still across one scan in 30 attempts");
});

test("our own sockets are classified exactly (inbound/outbound TIME_WAIT, CLOSE_WAIT, mapped IPv4, ::1)", () => {
  const scanner = new TcpScanner();
  const r = scanner.scan({ publicPorts: [portD, portT, portH], topN: 100, portRange: readPortRange("/proc") });
  const byIp = new Map(r.remoteIps.top.map((e) => [e.ip, e]));
  assert.deepEqual(
    r.remoteIps.ports,
    [portD, portT, portH].sort((x, y) => x - y),
  );
  // 127.0.0.1: 30 established on D (mapped → IPv4), 5 CLOSE_WAIT on H, 12 TIME_WAIT on T (server closed).
  assert.deepEqual(byIp.get("127.0.0.1"), { ip: "127.0.0.1", connections: 35, established: 30, timeWait: 12 });
  assert.deepEqual(byIp.get("127.0.0.2"), { ip: "127.0.0.2", connections: 20, established: 20, timeWait: 0 });
  assert.deepEqual(byIp.get("127.0.0.3"), { ip: "127.0.0.3", connections: 10, established: 10, timeWait: 0 });
  if (haveV6) assert.deepEqual(byIp.get("::1"), { ip: "::1", connections: 4, established: 4, timeWait: 0 });
  assert.ok(![...byIp.keys()].some((ip) => ip.startsWith("::ffff:")), "no IPv4-mapped address left in the report");
  // Outbound: the client sides toward D, T and H.
  const dest = (port: number) => r.outbound.top.find((e) => e.ip === "127.0.0.1" && e.port === port);
  assert.equal(dest(portD)?.established, 60, "60 IPv4 clients of D");
  assert.equal(dest(portT)?.timeWait, 10, "client-closed connections leave TIME_WAIT on the client");
  assert.equal(dest(portH)?.sockets, 5, "5 FIN_WAIT2 client sides");
  assert.ok(r.tcp.timeWaitInbound >= 12 && r.tcp.timeWaitOutbound >= 10);
  assert.ok(r.tcp.states.closeWait >= 5 && r.tcp.states.finWait2 >= 5);
  assert.ok([portD, portT, portH].every((p) => r.tcp.listeningPorts.includes(p)));
  if (r.outbound.portRange)
    assert.equal(dest(portD)?.portRangeUsage, Math.round((60 / r.outbound.portRange.size) * 1e6) / 1e6);
});

test("top N keeps the largest remotes in order", () => {
  const r = new TcpScanner().scan({ publicPorts: [portD], topN: 2, portRange: null });
  assert.deepEqual(
    r.remoteIps.top.map((e) => e.ip),
    ["127.0.0.1", "127.0.0.2"],
  );
  assert.equal(r.remoteIps.distinctIps, haveV6 ? 4 : 3);
  assert.equal(r.remoteIps.totalConnections, 60 + (haveV6 ? 4 : 0));
});

function isDeepEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepEqual(a, b);
    return true;
  } catch {
    return false;
  }
}
