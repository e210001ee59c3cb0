import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startSimnet, type Simnet } from "@rpcpulse/simnet";
import { RULES, evaluateNode, type Snippet, type SnippetKind } from "../src/index.js";
import { CASES } from "./catalogue.js";
import {
  checkFlags,
  checkHivedConfig,
  checkIptables,
  checkNft,
  checkNginx,
  checkShell,
  checkSysctl,
  checkSystemdDropIn,
  sidecarRequests,
  type CheckResult,
} from "./tool-check.js";

/** Every snippet the catalogue makes the advisor produce (deduplicated), with the case it came from. */
const harvested = new Map<string, { snippet: Snippet; from: string }>();
for (const c of CASES)
  for (const d of evaluateNode(c.input))
    for (const s of d.snippets)
      harvested.set(`${s.kind}\n${s.content}`, { snippet: s, from: `${c.name} → ${d.ruleId}` });
const byKind = (kind: SnippetKind) => [...harvested.values()].filter((h) => h.snippet.kind === kind);

function assertAll(kind: SnippetKind, check: (s: Snippet) => CheckResult) {
  const list = byKind(kind);
  assert.ok(list.length > 0, `no ${kind} snippets harvested`);
  for (const { snippet, from } of list) {
    const r = check(snippet);
    assert.ok(r.ok, `${kind} snippet from ${from} rejected:\n${snippet.content}\n--- tool said:\n${r.output}`);
  }
}

describe("every generated snippet passes the real tool", () => {
  it("covers every snippet kind the rules declare", () => {
    const declared = new Set(RULES.flatMap((r) => r.snippetKinds));
    for (const k of declared) assert.ok(byKind(k).length > 0, `catalogue produces no ${k} snippet`);
  });
  it("nginx -t (snippet inside http {} of a minimal nginx.conf)", () =>
    assertAll("nginx", (s) => checkNginx(s.content)));
  it("sysctl: /proc/sys keys, value ranges, kernel write in a throwaway netns", () =>
    assertAll("sysctl", (s) => checkSysctl(s.content)));
  it("iptables-restore --test", () => assertAll("iptables", (s) => checkIptables(s.content)));
  it("nft -c -f", () => assertAll("nftables", (s) => checkNft(s.content)));
  it("systemd-analyze verify (unit + drop-in, offline)", () => assertAll("systemd", checkSystemdDropIn));
  it("bash -n for shell snippets", () => assertAll("shell", (s) => checkShell(s.content)));
  it("client flags and hived config against the option table", () => {
    assertAll("nethermind-flags", checkFlags);
    assertAll("geth-flags", checkFlags);
    assertAll("substrate-flags", checkFlags);
    assertAll("hived-config", (s) => checkHivedConfig(s.content));
  });
});

describe("Sidecar query snippets answer on a simulated Sidecar", () => {
  let simnet: Simnet;
  before(async () => {
    simnet = await startSimnet({ nodes: [{ name: "sidecar-check", family: "sidecar", network: "polkadot", port: 0 }] });
  });
  after(async () => simnet?.close());
  it("known endpoints, boolean parameters, HTTP 200", async () => {
    const list = byKind("sidecar-query");
    assert.ok(list.length > 0);
    const base = simnet.node("sidecar-check").url;
    for (const { snippet } of list) {
      const { paths, problems } = sidecarRequests(snippet.content);
      assert.deepEqual(problems, []);
      for (const p of paths) {
        const res = await fetch(new URL(p, base));
        assert.equal(res.status, 200, `${p}: ${await res.text()}`);
      }
    }
  });
});

describe("the checkers reject broken snippets (negative controls)", () => {
  it("each tool says no to a broken input", () => {
    assert.equal(
      checkNginx(
        "limit_conn_zone $binary_remote_addr zone=x:10m;\nserver { listen 80; location / { limit_conn x abc; } }",
      ).ok,
      false,
    );
    assert.equal(checkNginx("upstream u { keepalive; }").ok, false);
    assert.equal(
      checkIptables("*filter\n-A INPUT -p tcp -m connlimit --connlimit-above many -j REJECT\nCOMMIT\n").ok,
      false,
    );
    assert.equal(
      checkNft(
        "table inet t { chain c { type filter hook input priority filter; tcp dport 80 ct count over x reject; } }",
      ).ok,
      false,
    );
    assert.equal(
      checkSystemdDropIn({
        kind: "systemd",
        title: "x",
        filename: "/etc/systemd/system/x.service.d/90-rpcpulse-nofile.conf",
        content: "[Service]\nLimitNOFILE=lots\n",
      }).ok,
      false,
    );
    assert.equal(
      checkSystemdDropIn({
        kind: "systemd",
        title: "x",
        filename: "/etc/systemd/system/x.service.d/90-rpcpulse-nofile.conf",
        content: "[Service]\nLimitNOFILES=1\n",
      }).ok,
      false,
    );
    assert.equal(checkShell("if then fi (").ok, false);
    assert.equal(checkSysctl("net.ipv4.tcp_tw_recycle = 1\n").ok, false, "removed key");
    assert.equal(checkSysctl("net.ipv4.ip_local_port_range = 60999 32768\n").ok, false, "reversed range");
    assert.equal(checkSysctl("net.ipv4.tcp_tw_reuse = 3\n").ok, false, "out of range");
    assert.equal(
      checkFlags({ kind: "nethermind-flags", title: "x", content: "  --Db.MaxBytesPerSec 100\n" }).ok,
      false,
      "removed option",
    );
    assert.equal(checkHivedConfig("enable-mira = true\n").ok, false);
    assert.notDeepEqual(sidecarRequests("GET /blocks/head?noFee=true\n").problems, []);
  });
});
