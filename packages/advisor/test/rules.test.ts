import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { evaluateNode, RULES, type SuggestionDraft } from "../src/index.js";
import { CASES } from "./catalogue.js";
import { DEFAULT_SETTINGS, GIB, build, defaultIps, faulty } from "./fixtures.js";

const only = (drafts: SuggestionDraft[], ruleId: string) => drafts.filter((d) => d.ruleId === ruleId);
const one = (drafts: SuggestionDraft[], ruleId: string) => {
  const hit = only(drafts, ruleId);
  assert.equal(hit.length, 1, `expected one ${ruleId}, got ${drafts.map((d) => d.ruleId).join(", ") || "nothing"}`);
  return hit[0]!;
};

describe("every catalogue case raises its rule with complete drafts", () => {
  for (const c of CASES) {
    it(c.name, () => {
      const d = one(evaluateNode(c.input), c.ruleId);
      assert.ok(d.title && d.summary && d.expectedEffect, "texts");
      assert.ok(d.evidence.length > 0, "evidence");
      assert.ok(d.arithmetic.length > 0, "arithmetic");
      assert.ok(d.sources.length > 0 && d.sources.every((s) => s.url.startsWith("https://")), "sources");
      assert.ok(d.impact >= 0 && d.impact <= 100);
      assert.ok(d.verification.metric && d.verification.how);
      if (d.kind === "change") assert.ok(d.snippets.length > 0, "a change comes with a snippet");
      const descriptor = RULES.find((r) => r.id === c.ruleId)!;
      for (const s of d.snippets)
        assert.ok(descriptor.snippetKinds.includes(s.kind), `${s.kind} declared by ${c.ruleId}`);
      assert.equal(
        evaluateNode(c.input)
          .map((x) => x.fingerprint)
          .join(),
        evaluateNode(c.input)
          .map((x) => x.fingerprint)
          .join(),
        "deterministic",
      );
    });
  }
});

describe("negative twins", () => {
  it("a quiet node produces nothing, for every family and client", () => {
    const nodes = [
      {},
      { family: "ethereum" as const, clientVersion: "Nethermind/v1.33.1+7a1b2c3d/linux-x64/dotnet9.0.9" },
      { family: "hive" as const, chain: "hive", clientVersion: "1.27.11" },
      { family: "hive" as const, chain: "steem", clientVersion: "0.23.1" },
      { family: "substrate" as const, clientVersion: "1.16.0", publicPorts: [9944], rpcPort: 9944 },
      { family: "sidecar" as const, clientVersion: "1.16.0" },
    ];
    const fewIps = (i: number) => defaultIps(i).slice(0, 10);
    for (const node of nodes)
      assert.deepEqual(evaluateNode(build({ node, remoteIps: fewIps })), [], JSON.stringify(node));
  });
  it("each fault just under its threshold produces nothing", () => {
    const under = [
      faulty.outbound("10.0.0.5", 8545, 14000), // 49.6 % of 28,232
      faulty.churn(8545, 999),
      build({ sample: () => ({ ephemeralInUse: 13000, timeWaitOut: 900 }) }), // aggregate-only: 46 %, < 1000 TW
      faulty.inboundTw(900),
      faulty.finWait2(150),
      build({ sample: (i) => ({ tcpCloseWait: 30 + (i % 2 ? 3 : -3) }) }), // high but flat
      faulty.conntrack(200000, 262144), // 76 %
      faulty.fds(800, 1024), // 78 %
      faulty.flood("203.0.113.9", 50, [80, 443]), // not above 50
      faulty.lagging({}, 9, 2),
      faulty.lagging({}, 40, 6),
      faulty.nethermind("1.33.1", 30),
      faulty.nethermind("1.29.3", 16, { "Db.MaxBytesPerSec": "1000000" }), // before the removal
      faulty.nethermind("1.33.1", 64, { "Pruning.CacheMb": "2000" }),
      faulty.substrateRpc(80),
      faulty.sidecar(600),
      build({
        node: { family: "hive", chain: "hive", clientVersion: "1.27.11" },
        settings: {
          shmTotalBytes: 16 * GIB,
          clientConfig: { "shared-file-size": "12G", "shared-file-dir": "/dev/shm/hived" },
        },
        sample: () => ({ shmFree: 3 * GIB }),
      }),
    ];
    for (const input of under) {
      const drafts = evaluateNode(input).filter(
        (d) => !(d.ruleId === "state-exceeds-memory" && input.node.family !== "hive"),
      );
      assert.deepEqual(
        drafts.map((d) => d.ruleId),
        [],
        `${input.node.clientVersion} ${input.window.samples[0]!.tcpCloseWait}`,
      );
    }
  });
  it("too few samples: silent", () => {
    assert.deepEqual(
      evaluateNode({
        ...faulty.closeWait(20),
        window: { ...faulty.closeWait(20).window, samples: faulty.closeWait(20).window.samples.slice(0, 2) },
      }),
      [],
    );
  });
});

describe("numbers and gates", () => {
  it("outbound to a remote tuple: widened range, reserved ports, tw_reuse=1, arithmetic", () => {
    const d = one(evaluateNode(faulty.outbound("10.0.0.5", 8545, 16000)), "outbound-port-exhaustion");
    assert.equal(d.severity, "high");
    assert.equal(d.fingerprint, "outbound-port-exhaustion:10.0.0.5:8545");
    assert.equal(d.evidence[0]!.observed, Number((16000 / 28232).toFixed(4)));
    const sysctl = d.snippets.find((s) => s.kind === "sysctl")!.content;
    // 16000 / 0.4 = 40000 ports → 25000..64999 (even/odd already)
    assert.match(sysctl, /net\.ipv4\.ip_local_port_range = 25000 64999/);
    assert.match(sysctl, /net\.ipv4\.ip_local_reserved_ports = 30303,30333\n/);
    assert.match(sysctl, /net\.ipv4\.tcp_tw_reuse = 1/);
    assert.ok(
      d.arithmetic.some((a) => a.includes("16,000 / 28,232 = 57 %")),
      d.arithmetic.join("\n"),
    );
    assert.ok(d.snippets.some((s) => s.kind === "nginx" && s.content.includes("keepalive 32")));
  });
  it("outbound to loopback never suggests tw_reuse=1 (the default 2 covers it)", () => {
    const d = one(evaluateNode(faulty.outbound("127.0.0.1", 8545, 24000)), "outbound-port-exhaustion");
    assert.equal(d.severity, "critical");
    assert.doesNotMatch(d.snippets.map((s) => s.content).join(), /tcp_tw_reuse = 1/);
  });
  it("inbound TIME_WAIT is an explanation without snippets", () => {
    const d = one(evaluateNode(faulty.inboundTw(9000)), "inbound-time-wait");
    assert.equal(d.kind, "explanation");
    assert.equal(d.snippets.length, 0);
    assert.ok(d.arithmetic.some((a) => a.includes("9,000 × ~168 B")));
  });
  it("listen overflows: backlog from the observed burst, min(backlog, somaxconn) shown", () => {
    const d = one(evaluateNode(faulty.listen(3200)), "listen-overflows");
    // min(511, 4096) = 511; 511 + 3200 = 3711 → 4096; somaxconn already 4096 → no sysctl, nginx backlog=4096
    assert.ok(d.arithmetic[0]!.includes("= 511"));
    assert.ok(d.arithmetic[2]!.endsWith("4,096"), d.arithmetic[2]);
    assert.ok(!d.snippets.some((s) => s.kind === "sysctl"));
    assert.match(d.snippets.find((s) => s.kind === "nginx")!.content, /listen 80 backlog=4096;/);
    const d2 = one(evaluateNode(faulty.listen(5000, { somaxconn: 128 })), "listen-overflows");
    assert.match(d2.snippets.find((s) => s.kind === "sysctl")!.content, /net\.core\.somaxconn = 8192/); // min(511,128)+5000 → 8192
  });
  it("flood: per-IP limit from the p99 of the other IPs × headroom", () => {
    const d = one(evaluateNode(faulty.flood("203.0.113.9", 300, [80, 443])), "connection-flood");
    // other IPs have 1-4 connections: p99 = 4 → max(10, 4 × 2) = 10
    assert.equal(d.evidence[0]!.observed, 300);
    assert.equal(d.evidence[1]!.observed, 4);
    assert.ok(d.arithmetic.some((a) => a.startsWith("Per-IP limit = max(10, ⌈p99 4 × headroom 2⌉) = 10")));
    const dry = d.snippets.find((s) => s.kind === "nginx" && s.dryRunFirst)!;
    assert.match(dry.content, /limit_req_dry_run on;/);
    assert.match(dry.content, /limit_conn rpc_conn_per_ip 10;/);
    assert.ok(d.snippets.some((s) => s.kind === "iptables" && s.content.includes("--connlimit-above 10")));
    assert.ok(d.snippets.some((s) => s.kind === "nftables" && s.content.includes("ct count over 10")));
    assert.ok(d.caveats.some((c) => c.includes("NAT")));
    const wide = one(
      evaluateNode(
        build({
          node: { publicPorts: [80] },
          remoteIps: (i) => [
            ...Array.from({ length: 40 }, (_, k) => ({ ip: `198.51.100.${k}`, connections: 20 + ((k + i) % 10) })),
            { ip: "192.0.2.1", connections: 55 },
          ],
        }),
      ),
      "connection-flood",
    );
    assert.equal(wide.kind, "explanation", "no separation between the flood and ordinary clients");
  });
  it("lagging with few peers: per client snippet", () => {
    const kinds = (input: ReturnType<typeof faulty.lagging>) =>
      one(evaluateNode(input), "lagging-few-peers").snippets.map((s) => s.kind);
    assert.deepEqual(kinds(faulty.lagging({ family: "hive", chain: "hive", clientVersion: "1.27.11" }, 50, 1)), [
      "hived-config",
      "shell",
    ]);
    assert.deepEqual(kinds(faulty.lagging({ clientVersion: "Nethermind/v1.33.1" }, 50, 1)), ["nethermind-flags"]);
    assert.deepEqual(kinds(faulty.lagging({}, 50, 1)), ["geth-flags", "shell"]);
    assert.deepEqual(kinds(faulty.lagging({ family: "substrate", clientVersion: "1.16.0" }, 50, 1)), [
      "substrate-flags",
    ]);
    const lagFromAge = build({
      node: { blockIntervalMs: 12000 },
      sample: () => ({ lagBlocks: null, headAgeMs: 240000, peers: 1 }),
    });
    assert.equal(one(evaluateNode(lagFromAge), "lagging-few-peers").evidence[0]!.observed, 20);
  });
  it("hived reports no peer count: lag alone (peers unknown), or P2P connections from outbound rows", () => {
    const hive = { family: "hive" as const, chain: "hive", clientVersion: "1.27.11", blockIntervalMs: 3000 };
    const unknown = one(
      evaluateNode(build({ node: hive, sample: () => ({ lagBlocks: 40, peers: null }) })),
      "lagging-few-peers",
    );
    assert.match(unknown.title, /unknown number of peers/);
    assert.equal(unknown.evidence.length, 1);
    const p2p = (n: number) =>
      build({
        node: hive,
        sample: () => ({ lagBlocks: 40, peers: null }),
        outbound: () =>
          Array.from({ length: n }, (_, k) => ({
            ip: `192.0.2.${k + 1}`,
            port: 2001,
            sockets: 1,
            established: 1,
            timeWait: 0,
          })),
      });
    const few = one(evaluateNode(p2p(2)), "lagging-few-peers");
    assert.equal(few.evidence[1]!.label, "Established P2P connections");
    assert.equal(few.evidence[1]!.observed, 2);
    assert.deepEqual(only(evaluateNode(p2p(8)), "lagging-few-peers"), [], "8 P2P peers: not a peering problem");
    assert.deepEqual(evaluateNode(build({ node: hive, sample: () => ({ lagBlocks: 0, peers: null }) })), []);
  });
  it("hived state: remount when it fits in RAM, move to NVMe when not; MIRA only flagged on hived", () => {
    const fits = one(
      evaluateNode(
        faulty.hivedState({ sharedFileSize: "24G", dir: "/dev/shm/hived", shmTotal: 16 * GIB, memTotal: 64 * GIB }),
      ),
      "state-exceeds-memory",
    );
    assert.match(fits.snippets[0]!.content, /mount -o remount,size=30G \/dev\/shm/); // 24 × 1.25 = 30
    const big = one(
      evaluateNode(
        faulty.hivedState({ sharedFileSize: "48G", dir: "/run/hive", shmTotal: 16 * GIB, memTotal: 32 * GIB }),
      ),
      "state-exceeds-memory",
    );
    assert.ok(big.snippets.some((s) => s.content.includes("shared-file-dir")));
    const steem = build({
      node: { family: "hive", chain: "steem", clientVersion: "0.23.1" },
      settings: { clientConfig: { "memory-replay-indices": "x" } },
    });
    assert.deepEqual(only(evaluateNode(steem), "hived-mira-obsolete"), []);
  });
  it("Nethermind: removed options flagged as obsolete-setting and never suggested", () => {
    const d = one(
      evaluateNode(faulty.nethermind("1.31.4", 16, { "Db.MaxBytesPerSec": "1" })),
      "nethermind-removed-options",
    );
    assert.equal(d.kind, "obsolete-setting");
    const all = CASES.flatMap((c) => evaluateNode(c.input))
      .flatMap((x) => x.snippets.map((s) => s.content))
      .join("\n");
    for (const removed of [
      "tcp_tw_recycle =",
      "Db.MaxBytesPerSec",
      "Db.StateDbDisableCompression",
      "Init.MemoryHint",
      "keepalive_requests 100000",
      "noFee=",
      "ENABLE_MIRA",
    ]) {
      assert.ok(!all.includes(removed), `no snippet contains ${removed}`);
    }
    const tier = one(evaluateNode(faulty.nethermind("1.33.1", 200)), "nethermind-memory-tier");
    assert.match(tier.snippets[0]!.content, /--Pruning\.CacheMb 4000/);
    assert.deepEqual(
      only(evaluateNode(faulty.nethermind("1.30.0", 200)), "nethermind-memory-tier"),
      [],
      "tiers gated on version",
    );
  });
  it("Substrate cap and Sidecar query parameters", () => {
    const cap = one(evaluateNode(faulty.substrateRpc(100)), "substrate-rpc-connection-cap");
    assert.match(cap.snippets[0]!.content, /--rpc-max-connections 200/);
    const sc = one(evaluateNode(faulty.sidecar(1500)), "sidecar-block-latency");
    assert.match(sc.snippets[0]!.content, /noFees=true/);
    assert.ok(sc.caveats.some((c) => c.includes("polkadot-rest-api")));
  });
  it("appliesWhen names an AdvisorSettings key with an exact value or a numeric comparison", () => {
    const keys = new Set(Object.keys(DEFAULT_SETTINGS));
    const seen = CASES.flatMap((c) => evaluateNode(c.input)).flatMap((d) => (d.appliesWhen ? [d.appliesWhen] : []));
    assert.ok(seen.length >= 4);
    for (const a of seen) {
      assert.ok(keys.has(a.setting), a.setting);
      assert.match(a.expected, /^(\[\]|(>=|<=)\d+)$/, a.expected);
    }
  });
  it("thresholds can be overridden", () => {
    assert.equal(
      only(evaluateNode({ ...faulty.inboundTw(900), thresholds: { timeWaitMin: 500 } }), "inbound-time-wait").length,
      1,
    );
  });
  it("RULES describes every rule for the docs page", () => {
    const ids = new Set(CASES.map((c) => c.ruleId));
    for (const r of RULES) assert.ok(ids.has(r.id), `${r.id} has a catalogue case`);
    assert.equal(new Set(RULES.map((r) => r.id)).size, RULES.length);
  });
});
