import assert from "node:assert/strict";
import dc from "node:diagnostics_channel";
import type { Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import {
  createSafeHttpClient,
  openSafeWebSocket,
  ProbeError,
  type ProbeErrorReason,
  type Resolver,
} from "../src/index.js";
import { startCanary, type Canary } from "./helpers/servers.js";

/** Scripted DNS: what an attacker-controlled zone would answer. */
const ZONE: Record<string, string[]> = {
  "127.0.0.1.nip.io": ["127.0.0.1"],
  "localtest.me": ["127.0.0.1"],
  "loop6.attacker.example": ["::1"],
  "mixed.attacker.example": ["93.184.215.14", "127.0.0.1"],
  "ten.attacker.example": ["10.0.0.5"],
  "meta.attacker.example": ["169.254.169.254"],
  "169.254.169.254.nip.io": ["169.254.169.254"],
  "mapped.attacker.example": ["::ffff:127.0.0.1"],
  "ula.attacker.example": ["fd00::1"],
  "cgnat.attacker.example": ["100.64.0.1"],
  "zero.attacker.example": ["0.0.0.0"],
  "ll6.attacker.example": ["fe80::1"],
  "nat64.attacker.example": ["64:ff9b::7f00:1"],
  "6to4.attacker.example": ["2002:7f00:1::1"],
  "awsv6.attacker.example": ["fd00:ec2::254"],
  "mcast.attacker.example": ["224.0.0.1"],
  "bcast.attacker.example": ["255.255.255.255"],
  "teredo.attacker.example": ["2001:0:4136:e378:8000:63bf:3fff:fdd2"],
  "doc6.attacker.example": ["2001:db8::1"],
  "bench.attacker.example": ["198.18.0.1"],
  "compat.attacker.example": ["::127.0.0.1"],
};
let resolverCalls = 0;
const zoneResolver: Resolver = async (name) => {
  resolverCalls++;
  const answers = ZONE[name];
  if (answers) return answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  if (name === "localhost")
    return [
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ];
  throw Object.assign(new Error(`NXDOMAIN ${name}`), { code: "ENOTFOUND" });
};

type Case = [cls: string, url: string, reason: ProbeErrorReason];

function corpus(p: number): Case[] {
  const B: ProbeErrorReason = "ssrf_blocked";
  const S: ProbeErrorReason = "bad_scheme";
  return [
    ["loopback", `http://127.0.0.1:${p}/`, B],
    ["loopback", `http://127.1.2.3:${p}/`, B],
    ["loopback", `http://[::1]:${p}/`, B],
    ["loopback", `http://[0:0:0:0:0:0:0:1]:${p}/`, B],
    ["loopback", `http://localhost:${p}/`, B],
    ["loopback", `http://LOCALHOST:${p}/`, B],
    ["loopback", `http://api.localhost:${p}/`, B],
    ["trailing dot", `http://localhost.:${p}/`, B],
    ["trailing dot", `http://127.0.0.1.:${p}/`, B],
    ["ipv4 form", `http://2130706433:${p}/`, B],
    ["ipv4 form", `http://0177.0.0.1:${p}/`, B],
    ["ipv4 form", `http://0x7f.1:${p}/`, B],
    ["ipv4 form", `http://127.1:${p}/`, B],
    ["ipv4 form", `http://127.0.1:${p}/`, B],
    ["ipv4 form", `http://0x7f000001:${p}/`, B],
    ["ipv4 form", `http://017700000001:${p}/`, B],
    ["ipv4 form", `http://0x7F.0x00.0x00.0x01:${p}/`, B],
    ["ipv4 form", `http://%31%32%37.0.0.1:${p}/`, B],
    ["ipv4 form", `http://１２７.０.０.１:${p}/`, B],
    ["ipv4 form", `http://127。0。0。1:${p}/`, B],
    ["unspecified", `http://0.0.0.0:${p}/`, B],
    ["unspecified", `http://0:${p}/`, B],
    ["unspecified", `http://[::]:${p}/`, B],
    ["mapped v6", `http://[::ffff:127.0.0.1]:${p}/`, B],
    ["mapped v6", `http://[::ffff:7f00:1]:${p}/`, B],
    ["mapped v6", `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`, B],
    ["mapped v6", `http://[::ffff:169.254.169.254]/`, B],
    ["mapped v6", `http://[::ffff:10.0.0.1]:${p}/`, B],
    ["compat v6", `http://[::127.0.0.1]:${p}/`, B],
    ["nat64", `http://[64:ff9b::127.0.0.1]:${p}/`, B],
    ["6to4", `http://[2002:7f00:1::]:${p}/`, B],
    ["rfc1918", `http://10.0.0.1:${p}/`, B],
    ["rfc1918", `http://172.16.0.1:${p}/`, B],
    ["rfc1918", `http://172.31.255.255:${p}/`, B],
    ["rfc1918", `http://192.168.1.1:${p}/`, B],
    ["ula", `http://[fc00::1]:${p}/`, B],
    ["ula", `http://[fd12:3456::1]:${p}/`, B],
    ["link-local", `http://169.254.0.1:${p}/`, B],
    ["link-local", `http://[fe80::1]:${p}/`, B],
    ["link-local", `http://[fe80::1%25lo]:${p}/`, S],
    ["cgnat", `http://100.64.0.1:${p}/`, B],
    ["cgnat", `http://100.127.255.254:${p}/`, B],
    ["metadata", `http://169.254.169.254/latest/meta-data/`, B],
    ["metadata", `http://metadata.google.internal/computeMetadata/v1/`, B],
    ["metadata", `http://metadata/computeMetadata/v1/`, B],
    ["metadata", `http://[fd00:ec2::254]/latest/meta-data/`, B],
    ["metadata", `http://100.100.100.200/latest/meta-data/`, B],
    ["metadata", `http://[::ffff:a9fe:a9fe]/`, B],
    ["multicast", `http://224.0.0.1:${p}/`, B],
    ["multicast", `http://239.255.255.250:${p}/`, B],
    ["multicast", `http://[ff02::1]:${p}/`, B],
    ["broadcast", `http://255.255.255.255:${p}/`, B],
    ["reserved", `http://240.0.0.1:${p}/`, B],
    ["reserved", `http://192.0.0.1:${p}/`, B],
    ["reserved", `http://198.18.0.1:${p}/`, B],
    ["reserved", `http://192.0.2.1:${p}/`, B],
    ["reserved", `http://198.51.100.1:${p}/`, B],
    ["reserved", `http://203.0.113.1:${p}/`, B],
    ["reserved", `http://[2001:db8::1]:${p}/`, B],
    ["reserved", `http://[100::1]:${p}/`, B],
    ["reserved", `http://[2001::1]:${p}/`, B],
    ["userinfo", `http://user@127.0.0.1:${p}/`, B],
    ["userinfo", `http://user:pass@rpc.example.com/`, B],
    ["userinfo", `http://rpc.example.com@127.0.0.1:${p}/`, B],
    ["userinfo", `http://@127.0.0.1:${p}/`, B],
    ["userinfo", `http://127.0.0.1:${p}@rpc.example.com/`, B],
    ["scheme", `file:///etc/passwd`, S],
    ["scheme", `gopher://127.0.0.1:${p}/_GET`, S],
    ["scheme", `dict://127.0.0.1:${p}/info`, S],
    ["scheme", `ftp://127.0.0.1:${p}/`, S],
    ["scheme", `ws://127.0.0.1:${p}/`, S],
    ["scheme", `javascript:alert(1)`, S],
    ["scheme", `http:/127.0.0.1:${p}/`, S],
    ["idn", `http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:${p}/`, B],
    ["idn", `http://locａlhost:${p}/`, B],
    ["idn", `http://loc%61lhost:${p}/`, B],
    ["idn", `http://loc\talhost:${p}/`, B],
    ["brackets", `http://[127.0.0.1]:${p}/`, S],
    ["brackets", `http://[rpc.example.com]:${p}/`, S],
    ["backslash", `http:\\\\127.0.0.1:${p}\\`, B],
    ["single label", `http://redis:${p}/`, B],
    ["internal suffix", `http://node.internal:${p}/`, B],
    ["internal suffix", `http://printer.local:${p}/`, B],
    ["dns", `http://127.0.0.1.nip.io:${p}/`, B],
    ["dns", `http://localtest.me:${p}/`, B],
    ["dns", `http://loop6.attacker.example:${p}/`, B],
    ["dns any-record", `http://mixed.attacker.example:${p}/`, B],
    ["dns", `http://ten.attacker.example:${p}/`, B],
    ["dns", `http://meta.attacker.example/`, B],
    ["dns", `http://169.254.169.254.nip.io/`, B],
    ["dns", `http://mapped.attacker.example:${p}/`, B],
    ["dns", `http://ula.attacker.example:${p}/`, B],
    ["dns", `http://cgnat.attacker.example:${p}/`, B],
    ["dns", `http://zero.attacker.example:${p}/`, B],
    ["dns", `http://ll6.attacker.example:${p}/`, B],
    ["dns", `http://nat64.attacker.example:${p}/`, B],
    ["dns", `http://6to4.attacker.example:${p}/`, B],
    ["dns", `http://awsv6.attacker.example/`, B],
    ["dns", `http://mcast.attacker.example:${p}/`, B],
    ["dns", `http://bcast.attacker.example:${p}/`, B],
    ["dns", `http://teredo.attacker.example:${p}/`, B],
    ["dns", `http://doc6.attacker.example:${p}/`, B],
    ["dns", `http://bench.attacker.example:${p}/`, B],
    ["dns", `http://compat.attacker.example:${p}/`, B],
  ];
}

let attempts = 0;
const onSocket = (msg: unknown): void => {
  (msg as { socket: Socket }).socket.on("connectionAttempt", () => attempts++);
};

describe("SSRF corpus", () => {
  let canary: Canary;
  before(async () => {
    canary = await startCanary();
    dc.subscribe("net.client.socket", onSocket);
  });
  after(async () => {
    dc.unsubscribe("net.client.socket", onSocket);
    await canary.close();
  });

  it("refuses every URL of the corpus and the canary sees no connection", async () => {
    // Ports are opened up so the address checks, not the port list, are what is tested.
    const client = createSafeHttpClient({
      allowPrivate: false,
      allowedPorts: "any",
      resolver: zoneResolver,
      timeoutMs: 2000,
    });
    const cases = corpus(canary.port);
    assert.ok(cases.length >= 60, `corpus has ${cases.length} URLs`);
    const classes = new Set(cases.map((c) => c[0]));
    assert.ok(classes.size >= 20, `corpus covers ${classes.size} classes`);
    const leaks: string[] = [];
    for (const [cls, url, reason] of cases) {
      try {
        await client.request(url);
        leaks.push(`${cls}: ${url} was fetched`);
      } catch (err) {
        if (!(err instanceof ProbeError) || err.reason !== reason) {
          leaks.push(
            `${cls}: ${url} failed with ${err instanceof ProbeError ? err.reason : String(err)} (want ${reason})`,
          );
        }
      }
    }
    assert.deepEqual(leaks, []);
    assert.equal(canary.connections(), 0, "canary saw a connection");
    assert.equal(attempts, 0, "a TCP connection attempt was made");
  });

  it("refuses the same targets over ws/wss", async () => {
    const client = createSafeHttpClient({ allowPrivate: false, allowedPorts: "any", resolver: zoneResolver });
    const p = canary.port;
    const urls = [
      `ws://127.0.0.1:${p}/`,
      `wss://[::1]:${p}/`,
      `ws://localhost:${p}/`,
      `ws://2130706433:${p}/`,
      `ws://mapped.attacker.example:${p}/`,
      `ws://loop6.attacker.example:${p}/`,
      `ws://user@127.0.0.1:${p}/`,
      `http://127.0.0.1:${p}/`,
    ];
    for (const url of urls) {
      await assert.rejects(
        openSafeWebSocket(client, url),
        (e: unknown) => e instanceof ProbeError && ["ssrf_blocked", "bad_scheme"].includes(e.reason),
        url,
      );
    }
    assert.equal(canary.connections(), 0);
    assert.equal(attempts, 0);
  });

  it("enforces the default port list without resolving the name", async () => {
    const client = createSafeHttpClient({ resolver: zoneResolver });
    const before = resolverCalls;
    for (const url of [
      "http://rpc.example.com:22/",
      "http://rpc.example.com:6379/",
      "https://rpc.example.com:5432/",
      "http://93.184.215.14:11211/",
      `http://rpc.example.com:${canary.port}/`,
    ]) {
      await assert.rejects(
        client.request(url),
        (e: unknown) => e instanceof ProbeError && e.reason === "ssrf_blocked",
        url,
      );
    }
    assert.equal(resolverCalls, before);
  });

  it("the canary does see a connection when private targets are allowed (the check above can fail)", async () => {
    const client = createSafeHttpClient({ allowPrivate: true, timeoutMs: 500 });
    await assert.rejects(client.request(`http://127.0.0.1:${canary.port}/`));
    await assert.rejects(client.request(`http://[::1]:${canary.port}/`));
    assert.equal(canary.connections(), 2);
    // Metadata stays blocked even then.
    await assert.rejects(
      client.request("http://169.254.169.254/"),
      (e: unknown) => e instanceof ProbeError && e.reason === "ssrf_blocked",
    );
    await assert.rejects(
      client.request("http://metadata.google.internal/"),
      (e: unknown) => e instanceof ProbeError && e.reason === "ssrf_blocked",
    );
  });
});
