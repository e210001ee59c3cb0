import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { evaluateNode, type SuggestionDraft } from "../src/index.js";
import { build, defaultIps, faulty } from "./fixtures.js";

const LIMIT_KINDS = new Set(["nginx", "iptables", "nftables"]);

function flood(ip: string, connections = 200, extra: { ip: string; connections: number }[] = []): SuggestionDraft {
  const drafts = evaluateNode(
    build({ node: { publicPorts: [8545] }, remoteIps: (i) => [...defaultIps(i), { ip, connections }, ...extra] }),
  ).filter((d) => d.ruleId === "connection-flood");
  assert.equal(drafts.length, 1, ip);
  return drafts[0]!;
}

describe("connection-flood: loopback sources are a local proxy, never limited", () => {
  for (const ip of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.0.77"]) {
    it(`${ip}: explanation without limit_conn / iptables / nftables snippets`, () => {
      const d = flood(ip);
      assert.equal(d.kind, "explanation");
      assert.equal(d.severity, "info");
      assert.ok(
        d.snippets.every((s) => !LIMIT_KINDS.has(s.kind)),
        d.snippets.map((s) => s.kind).join(),
      );
      assert.doesNotMatch(d.snippets.map((s) => s.content).join("\n"), /limit_conn|connlimit|ct count/);
      assert.equal(d.title, `${ip} (loopback) held 200 connections to port 8545: a local process, not a client`);
      assert.match(d.summary, /local reverse proxy/);
      assert.match(d.summary, /Per-IP limits belong on the proxy, which sees the real client addresses/);
      assert.match(d.summary, /X-Forwarded-For \/ real_ip/);
      assert.equal(d.evidence[0]!.observed, 200);
      assert.equal(d.fingerprint, "connection-flood:8545");
      assert.ok(d.snippets[0]!.content.startsWith("ss -Htnp state established '( dport = :8545 )'"));
      assert.ok(d.sources.some((s) => s.url.includes("realip")));
    });
  }

  it("a remote flood next to a busy local proxy: limits for the remote address, proxy left out of the p99", () => {
    const d = flood("203.0.113.9", 300, [{ ip: "127.0.0.1", connections: 250 }]);
    assert.equal(d.kind, "change");
    assert.match(d.title, /^203\.0\.113\.9 held 300 connections to port 8545$/);
    assert.equal(d.evidence[1]!.observed, 4, "p99 of the 40 ordinary clients, not the proxy's 250");
    assert.ok(d.snippets.some((s) => s.kind === "nginx" && s.content.includes("limit_conn rpc_conn_per_ip 10;")));
    assert.ok(d.caveats.some((c) => c.includes("Loopback sources above the bar (127.0.0.1)")));
  });

  it("addresses that only look close to loopback are clients", () => {
    for (const ip of ["126.255.255.255", "128.0.0.1", "::2", "::ffff:10.0.0.1"]) {
      const d = flood(ip);
      assert.equal(d.kind, "change", ip);
      assert.ok(d.snippets.some((s) => s.kind === "iptables"));
    }
  });

  it("a remote flood is unchanged (twin of the loopback cases)", () => {
    const d = evaluateNode(faulty.flood("198.18.0.77", 200, [8545])).find((x) => x.ruleId === "connection-flood")!;
    assert.equal(d.kind, "change");
    assert.ok(d.snippets.some((s) => s.kind === "nginx" && s.dryRunFirst));
  });
});
