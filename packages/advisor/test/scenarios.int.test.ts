import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { before, describe, it } from "node:test";
import { agentSampleSchema, NETWORKS } from "@rpcpulse/domain";
import { agentSamplesToAdvisorInput, evaluateNode, type AdvisorInput, type SuggestionDraft } from "../src/index.js";
import type { ScenarioName, ScenarioSpec } from "./scenario/runner.js";
import { requireTool, TOOLS } from "./tool-check.js";

/**
 * End-to-end scenarios: real loopback traffic, read by the real agent CLI, turned into an
 * AdvisorInput by the wire adapter, evaluated by the advisor. Each scenario runs in its own
 * network namespace (unshare -n, root), so other processes on this host cannot add sockets
 * and the negative twins are exact.
 */
const RUNNER = fileURLToPath(new URL("./scenario/runner.ts", import.meta.url));
const intervalOf = (slug: string) => NETWORKS.find((n) => n.slug === slug)!.blockIntervalMs;
const SAMPLES = 5;

interface RunOutput {
  samples: unknown[];
  refHeads: { time: string; head: number }[];
  ports: { node: number; reference: number; app: number };
}

function runScenario(spec: ScenarioSpec): Promise<RunOutput> {
  const unshare = requireTool(TOOLS.unshare);
  return new Promise((resolve, reject) => {
    const child = spawn(unshare, ["-n", process.execPath, "--import", "tsx", RUNNER, JSON.stringify(spec)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(
          new Error(`scenario ${spec.scenario} (fault=${spec.fault}) exited ${code} (unshare -n needs root):\n${err}`),
        );
      const last = out.trim().split("\n").pop() ?? "";
      try {
        resolve(JSON.parse(last) as RunOutput);
      } catch {
        reject(new Error(`scenario ${spec.scenario}: no JSON on stdout:\n${out}\n${err}`));
      }
    });
  });
}

function toInput(run: RunOutput, publicPorts: number[], family: "ethereum" | "hive"): AdvisorInput {
  const samples = run.samples.map((s) => agentSampleSchema.parse(s));
  const heads = run.refHeads.map((r) => ({ t: Date.parse(r.time), head: r.head }));
  return agentSamplesToAdvisorInput(samples, {
    node: {
      id: "scenario-node",
      family,
      chain: family === "hive" ? "hive" : "ethereum",
      clientVersion: samples[0]?.chain?.clientVersion ?? null,
      publicPorts,
      rpcPort: run.ports.node,
      blockIntervalMs: intervalOf(family === "hive" ? "hive" : "ethereum-mainnet"),
    },
    // The reference node's head, read right after each agent sample arrived.
    referenceHead: (time) =>
      heads.reduce(
        (best, h) => (Math.abs(h.t - time.getTime()) < Math.abs(best.t - time.getTime()) ? h : best),
        heads[0]!,
      ).head,
  });
}

const results = new Map<string, { input: AdvisorInput; drafts: SuggestionDraft[] }>();
const key = (s: ScenarioName, fault: boolean) => `${s}:${fault}`;

describe("advisor scenarios: real traffic → real agent → advisor", { timeout: 600_000 }, () => {
  before(async () => {
    const specs: ScenarioSpec[] = [
      ...(["flood", "churn", "close-wait", "lagging", "lagging-hive", "listen-overflow"] as const).flatMap(
        (scenario) => [
          { scenario, fault: true, samples: SAMPLES },
          { scenario, fault: false, samples: SAMPLES },
        ],
      ),
      // Twins: the flood twin (same 20 clients, no loopback source) and the in-sync lagging-hive twin.
      { scenario: "flood-local", fault: true, samples: SAMPLES },
      { scenario: "stalled-hive", fault: true, samples: SAMPLES },
    ];
    // Two at a time (each in its own network namespace; this machine has 2 cores).
    for (let i = 0; i < specs.length; i += 2) {
      const batch = specs.slice(i, i + 2);
      const runs = await Promise.all(batch.map(runScenario));
      batch.forEach((spec, k) => {
        const run = runs[k]!;
        const ports =
          spec.scenario === "close-wait" || spec.scenario === "listen-overflow"
            ? [run.ports.node, run.ports.app]
            : [run.ports.node];
        const hive = spec.scenario === "lagging-hive" || spec.scenario === "stalled-hive";
        const input = toInput(run, ports, hive ? "hive" : "ethereum");
        results.set(key(spec.scenario, spec.fault), { input, drafts: evaluateNode(input) });
      });
    }
  });

  const get = (s: ScenarioName, fault: boolean) => results.get(key(s, fault))!;
  const ruleIds = (d: SuggestionDraft[]) => d.map((x) => x.ruleId);

  it("every run produced schema-valid samples", () => {
    for (const [k, r] of results) assert.equal(r.input.window.samples.length, SAMPLES, k);
  });

  it("(a) a flood of 300 connections from 198.18.0.77 → per-IP limits derived from the other clients", () => {
    const { drafts } = get("flood", true);
    assert.deepEqual(ruleIds(drafts), ["connection-flood"]);
    const d = drafts[0]!;
    assert.equal(d.kind, "change");
    assert.match(d.title, /^198\.18\.0\.77 held 300 connections to port 45201/);
    assert.equal(d.evidence[0]!.observed, 300);
    assert.equal(d.evidence[0]!.series?.length, SAMPLES);
    assert.equal(d.evidence[1]!.observed, 3, "p99 of the 20 ordinary clients (1-3 connections each)");
    assert.ok(
      d.arithmetic.some((a) => a.startsWith("Per-IP limit = max(10, ⌈p99 3 × headroom 2⌉) = 10 < 300")),
      d.arithmetic.join("\n"),
    );
    const dry = d.snippets.find((s) => s.kind === "nginx" && s.dryRunFirst)!;
    assert.match(dry.content, /listen 45201;[\s\S]*limit_conn rpc_conn_per_ip 10;[\s\S]*limit_req_dry_run on;/);
    assert.ok(
      d.snippets.some(
        (s) => s.kind === "iptables" && s.content.includes("--dport 45201 -m connlimit --connlimit-above 10"),
      ),
    );
    assert.deepEqual(get("flood", false).drafts, [], "twin: the same 20 clients without the flood");
  });

  it("(a2) the same 300 connections from loopback 127.0.0.77 (a local proxy) → explanation, no limits", () => {
    const { drafts } = get("flood-local", true);
    assert.deepEqual(ruleIds(drafts), ["connection-flood"]);
    const d = drafts[0]!;
    assert.equal(d.kind, "explanation");
    assert.match(d.title, /^127\.0\.0\.77 \(loopback\) held 300 connections to port 45201: a local process/);
    assert.equal(d.evidence[0]!.observed, 300);
    assert.ok(d.snippets.every((s) => s.kind === "shell"));
    assert.doesNotMatch(d.snippets.map((s) => s.content).join("\n"), /limit_conn|connlimit/);
  });

  it("(b) outbound churn to the node's RPC port → upstream keepalive, not tw_reuse", () => {
    const { drafts } = get("churn", true);
    assert.deepEqual(ruleIds(drafts), ["nginx-upstream-keepalive"]);
    const d = drafts[0]!;
    assert.equal(d.fingerprint, "nginx-upstream-keepalive:127.0.0.1:45201");
    assert.match(d.title, /TIME_WAIT sockets toward the node's RPC port 127\.0\.0\.1:45201/);
    assert.ok(d.evidence[0]!.observed >= 1000, String(d.evidence[0]!.observed));
    assert.equal(d.evidence[0]!.metric, "tw_outbound");
    assert.match(d.snippets[0]!.content, /server 127\.0\.0\.1:45201;\s+keepalive 32;/);
    assert.doesNotMatch(d.snippets.map((s) => s.content).join(), /tcp_tw_reuse/);
    assert.deepEqual(get("churn", false).drafts, [], "twin: no churn");
  });

  it("(c) a server that never closes after its peers hang up → CLOSE_WAIT leak explanation", () => {
    const { drafts, input } = get("close-wait", true);
    assert.deepEqual(ruleIds(drafts), ["close-wait-leak"], "and no flood finding for the leaked sockets");
    const d = drafts[0]!;
    assert.equal(d.kind, "explanation");
    const cw = input.window.samples.map((s) => s.tcpCloseWait!);
    assert.equal(d.evidence[0]!.observed, cw[cw.length - 1]);
    assert.ok(cw[cw.length - 1]! >= 80 && cw[cw.length - 1]! > cw[0]!, cw.join(","));
    assert.ok(d.snippets.every((s) => s.kind === "shell") && d.snippets[0]!.content.includes("state close-wait"));
    assert.deepEqual(get("close-wait", false).drafts, [], "twin: the server closes when the peer does");
  });

  it("(d) a simnet node 30 blocks behind with 2 peers → lagging-few-peers with Geth flags", () => {
    const { drafts } = get("lagging", true);
    assert.deepEqual(ruleIds(drafts), ["lagging-few-peers"]);
    const d = drafts[0]!;
    assert.equal(d.evidence[0]!.metric, "lag_blocks");
    assert.ok(d.evidence[0]!.observed >= 29 && d.evidence[0]!.observed <= 31, String(d.evidence[0]!.observed));
    assert.equal(d.evidence[1]!.observed, 2);
    // --maxpeers 10 came from the node process's command line (agent settings.nodeArgs); the secret flag did not.
    assert.ok(d.arithmetic.includes("--maxpeers 10 (default 50); median peers 2"), d.arithmetic.join("\n"));
    assert.ok(
      d.snippets.some(
        (s) =>
          s.kind === "geth-flags" && s.content.includes("# --maxpeers: was 10") && s.content.includes("--maxpeers 50"),
      ),
    );
    assert.deepEqual(get("lagging", true).input.settings?.clientConfig, { "--maxpeers": "10", maxpeers: "10" });
    assert.deepEqual(get("lagging", false).drafts, [], "twin: in sync with 25 peers");
  });

  it("(d2) a hived node 30 blocks behind (hived reports no peer count) → lagging-few-peers with hived config", () => {
    const { drafts } = get("lagging-hive", true);
    assert.deepEqual(ruleIds(drafts), ["lagging-few-peers"]);
    const d = drafts[0]!;
    assert.match(d.title, /^(29|30|31) blocks behind with an unknown number of peers$/);
    assert.ok(d.snippets.some((s) => s.kind === "hived-config" && s.content.includes("p2p-endpoint = 0.0.0.0:2001")));
    assert.deepEqual(get("lagging-hive", false).drafts, [], "twin: in sync");
  });

  it("(d3) a hived node whose head freezes → stalled-head from the real agent's head number and age", () => {
    // 5 samples 1 s apart: a threshold of 3.5 s (above one 3 s block) stands in for the default 60 s.
    const thresholds = { stalledHeadMinMs: 3_500, stalledHeadBlocks: 1 };
    const stalled = evaluateNode({ ...get("stalled-hive", true).input, thresholds });
    // The head froze when simnet started; by the first sample it is usually > 10 blocks behind too,
    // so lagging-few-peers may speak as well (hived reports no peers).
    const ids = ruleIds(stalled);
    assert.ok(
      ids.includes("stalled-head") && ids.every((id) => id === "stalled-head" || id === "lagging-few-peers"),
      ids.join(),
    );
    const d = stalled.find((x) => x.ruleId === "stalled-head")!;
    assert.equal(d.kind, "explanation");
    const heads = get("stalled-hive", true).input.window.samples.map((s) => s.headBlock);
    assert.equal(new Set(heads).size, 1, heads.join(","));
    assert.ok(d.evidence[0]!.metric === "head_age_ms" && d.evidence[0]!.observed >= 4, JSON.stringify(d.evidence[0]));
    assert.ok(d.snippets.some((s) => s.content.includes("database_api.get_dynamic_global_properties")));
    assert.deepEqual(
      evaluateNode({ ...get("lagging-hive", false).input, thresholds }),
      [],
      "twin: in sync, a new block every 3 s",
    );
  });

  it("(e) a slow acceptor with backlog 1 → listen-overflows sized from the kernel's ListenOverflows deltas", () => {
    const { drafts, input } = get("listen-overflow", true);
    assert.deepEqual(ruleIds(drafts), ["listen-overflows"]);
    const d = drafts[0]!;
    const deltas = input.window.samples.map((s) => s.listenOverflows ?? 0);
    const total = deltas.reduce((a, b) => a + b, 0);
    const worst = Math.max(...deltas);
    assert.ok(total > 0 && d.evidence[0]!.observed === total, `${d.evidence[0]!.observed} vs ${deltas.join(",")}`);
    const expected = Math.min(65535, Math.max(1024, 2 ** Math.ceil(Math.log2(511 + worst))));
    assert.ok(d.arithmetic[2]!.includes(`511 + ${worst} = ${511 + worst}`), d.arithmetic[2]);
    assert.ok(d.snippets.some((s) => s.kind === "nginx" && s.content.includes(`listen 45103 backlog=${expected};`)));
    assert.deepEqual(get("listen-overflow", false).drafts, [], "twin: backlog 511, prompt accept");
  });
});
