import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chainGroupSchema, type AgentSample } from "@rpcpulse/domain";
import {
  agentSamplesToAdvisorInput,
  evaluateNode,
  metricSeries,
  type AdvisorInput,
  type SuggestionDraft,
} from "../src/index.js";
import { geth, hived, substrate } from "./catalogue.js";
import { at, build, T0, STEP_S } from "./fixtures.js";
import { clockBehind, clockOffByIngest } from "./clock-fixtures.js";

const skew = (input: AdvisorInput): SuggestionDraft[] => evaluateNode(input).filter((d) => d.ruleId === "clock-skew");
const one = (input: AdvisorInput): SuggestionDraft => {
  const hit = skew(input);
  assert.equal(hit.length, 1, `expected one clock-skew, got ${hit.length}`);
  return hit[0]!;
};

describe("clock-skew: the host clock is off", () => {
  it("geth whose blocks carry timestamps 12 s in its future: behind by at least that, checks, sources", () => {
    const d = one(clockBehind(geth, 12_000));
    assert.equal(d.kind, "explanation");
    assert.equal(d.fingerprint, "clock-skew");
    assert.equal(d.severity, "medium");
    assert.equal(d.title, "Host clock at least 12 s behind the chain");
    assert.deepEqual(
      d.evidence.map((e) => [e.metric, e.observed, e.threshold, e.comparison, e.unit]),
      [["head_age_ms", 12, 2, ">", "s"]],
    );
    assert.equal(d.evidence[0]!.series?.length, 30);
    assert.ok(
      d.evidence[0]!.series!.every((p) => p.value < 0),
      "the chart shows the negative head age",
    );
    assert.match(d.summary, /timestamp 12 s in this host's future in 30 samples/);
    assert.match(d.summary, /may hold back new blocks/);
    assert.ok(
      d.arithmetic.some((l) => /Negative head age .* in 30 of 30 samples; median −12 s/.test(l)),
      d.arithmetic.join("\n"),
    );
    const shell = d.snippets.map((s) => s.content).join("\n");
    for (const command of [
      "timedatectl status",
      "timedatectl timesync-status",
      "systemctl status systemd-timesyncd",
      "chronyc tracking",
    ])
      assert.ok(shell.includes(command), command);
    assert.ok(d.snippets.every((s) => s.kind === "shell"));
    assert.doesNotMatch(shell, /set-ntp|restart|makestep|date -s/, "read-only: nothing that changes the clock");
    assert.deepEqual(
      d.sources.map((s) => s.url),
      [
        "https://www.freedesktop.org/software/systemd/man/latest/timedatectl.html",
        "https://www.freedesktop.org/software/systemd/man/latest/systemd-timesyncd.service.html",
        "https://chrony-project.org/documentation.html",
      ],
    );
    assert.deepEqual([d.verification.metric, d.verification.direction], ["clock_skew_ms", "decrease"]);
  });

  it("hived whose agent clock runs 95 s ahead (ingest measurement): ahead, high; the stalled-head rule stays quiet", () => {
    const input = clockOffByIngest(hived, 95_000);
    const d = one(input);
    assert.equal(d.severity, "high");
    assert.equal(d.title, "Host clock 95 s ahead");
    assert.deepEqual(
      d.evidence.map((e) => [e.metric, e.observed]),
      [["clock_skew_ms", 95]],
    );
    assert.match(d.summary, /agent's clock is 95 s ahead of the RPC Pulse server's/);
    assert.doesNotMatch(d.summary, /hold back new blocks/);
    assert.ok(
      d.arithmetic.includes("Offset used: +95 s (ingest measurement, both directions)"),
      d.arithmetic.join("\n"),
    );
    assert.equal(evaluateNode(input).filter((x) => x.ruleId === "stalled-head").length, 0);
  });

  it("both signals: the ingest measurement gives the offset, the head evidence backs it", () => {
    const d = one(clockOffByIngest(substrate, -30_000, { headAgeMs: -29_000 }));
    assert.equal(d.title, "Host clock 30 s behind");
    assert.deepEqual(
      d.evidence.map((e) => e.metric),
      ["head_age_ms", "clock_skew_ms"],
    );
  });

  it("stays quiet within the tolerance, when too few samples are off, and once the clock was fixed", () => {
    assert.deepEqual(skew(clockBehind(geth, 1_500)), [], "1.5 s: within 2 s");
    assert.deepEqual(skew(clockOffByIngest(hived, -1_800)), []);
    assert.deepEqual(skew(build({ sample: (i) => (i < 2 ? { headAgeMs: -20_000 } : {}) })), [], "two samples only");
    const fixed = build({
      sample: (i) => (i < 25 ? { headAgeMs: -20_000, clockSkewMs: -20_000 } : { clockSkewMs: 40 }),
    });
    assert.deepEqual(skew(fixed), [], "the newest samples are fine again");
    const tight = clockBehind(geth, 1_500);
    assert.equal(skew({ ...tight, thresholds: { clockSkewMs: 500 } }).length, 1, "the tolerance is a threshold");
  });

  it("clock_skew_ms: the larger of |ingest skew| and a head timestamp's lead, per sample", () => {
    const input = build({
      n: 4,
      sample: (i) =>
        [{ clockSkewMs: -300, headAgeMs: -5_000 }, { clockSkewMs: 7_000, headAgeMs: 800 }, { headAgeMs: null }, {}][i]!,
    });
    input.window.samples[2]!.clockSkewMs = undefined;
    assert.deepEqual(
      metricSeries("clock_skew_ms", input.window.samples).map((p) => p.value),
      [5_000, 7_000, 0],
    );
  });
});

describe("clock-skew from the agent's wire samples", () => {
  it("a negative, flagged headAgeMs passes the wire schema and reaches the rule unclamped", () => {
    const samples: AgentSample[] = Array.from({ length: 6 }, (_, i) => {
      const collectedAt = T0 + i * STEP_S * 1000;
      const headTime = collectedAt + 9_000; // the host clock is 9 s behind the block timestamps
      const chain = chainGroupSchema.parse({
        family: "ethereum",
        ok: true,
        headBlock: 1000 + i,
        headHash: null,
        headTime: new Date(headTime).toISOString(),
        headTimeSource: "block",
        headAgeMs: collectedAt - headTime,
        headAgeSkewed: true,
        finalizedBlock: null,
        peers: 20,
        syncing: false,
        clientVersion: "Geth/v1.16.7-stable-b9f3a3d9/linux-amd64/go1.24.10",
        latency: null,
        error: null,
      });
      return {
        collectedAt: new Date(collectedAt).toISOString(),
        tcp: null,
        sockstat: null,
        netstat: null,
        conntrack: null,
        fds: null,
        host: null,
        disks: [],
        settings: null,
        chain,
        remoteIps: null,
        outbound: null,
        self: null,
        errors: [],
      };
    });
    const input = agentSamplesToAdvisorInput(samples, {
      node: {
        id: "n",
        family: "ethereum",
        clientVersion: geth.clientVersion,
        publicPorts: [],
        blockIntervalMs: 12_000,
      },
    });
    assert.deepEqual(
      input.window.samples.map((s) => s.headAgeMs),
      Array(6).fill(-9_000),
    );
    assert.equal(input.window.from.getTime(), at(0).getTime());
    assert.equal(one(input).title, "Host clock at least 9 s behind the chain");
    assert.equal(
      chainGroupSchema.safeParse({ ...samples[0]!.chain, headAgeMs: -86_400_001 }).success,
      false,
      "bounded",
    );
  });
});
