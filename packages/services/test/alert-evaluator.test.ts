import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  initialAlertState,
  stepAlert,
  type AlertStateSnapshot,
  type AlertStepEvent,
  type EvaluatorRule,
} from "../src/alerting/evaluator.js";
import { describeAlertEvent } from "../src/alerting/describe-alert.js";
import { measureEndpointDown } from "../src/alerting/measure.js";
import { resolveThresholds } from "../src/alerting/rule-params.js";

const T0 = Date.parse("2026-11-22T06:00:00Z");
const STEP = 15_000;

const lagRule: EvaluatorRule = {
  threshold: 10,
  degraded: 3,
  resolveBelow: 3,
  windowMinutes: 0,
  forMs: 60_000,
  resolveForMs: 60_000,
  renotifyMs: 0,
  notifyResolved: true,
};

interface Run {
  events: Array<AlertStepEvent & { at: number }>;
  states: AlertStateSnapshot[];
  final: AlertStateSnapshot;
}

/** Evaluate one value per 15 s tick; `maintenance(i)` says whether tick i falls in a window. */
function run(
  rule: EvaluatorRule,
  values: Array<number | null>,
  maintenance: (i: number) => boolean = () => false,
): Run {
  let state = initialAlertState(new Date(T0));
  const events: Run["events"] = [];
  const states: AlertStateSnapshot[] = [];
  values.forEach((value, i) => {
    const now = new Date(T0 + i * STEP);
    const step = stepAlert(rule, state, value, now, { inMaintenance: maintenance(i), keyPrefix: "rule:node:n1" });
    state = step.state;
    states.push(state);
    if (step.event) events.push({ ...step.event, at: i });
  });
  return { events, states, final: state };
}

const repeat = (value: number | null, n: number): Array<number | null> => Array.from({ length: n }, () => value);

describe("alert evaluator", () => {
  it("a flapping value never fires: the for-duration restarts every time it clears", () => {
    // 20, 0, 20, 0 ... for 10 minutes: never held for 60 s.
    const values = Array.from({ length: 40 }, (_, i) => (i % 3 === 2 ? 0 : 20));
    const r = run(lagRule, values);
    assert.deepEqual(r.events, []);
    assert.ok(r.states.some((s) => s.status === "pending"));
    assert.ok(r.states.every((s) => s.status === "pending" || s.status === "ok"));
  });

  it("fires after the for-duration, then resolves once below the resolve threshold for resolveFor", () => {
    const values = [...repeat(20, 8), ...repeat(1, 8)];
    const r = run(lagRule, values);
    assert.deepEqual(
      r.events.map((e) => [e.kind, e.at, e.silenced]),
      [
        ["firing", 4, false],
        ["resolved", 12, false],
      ],
    );
    assert.equal(r.final.status, "ok");
    assert.equal(r.events[0]?.dedupKey, r.events[1]?.dedupKey, "one episode, one key");
    assert.equal(r.events[0]?.dedupKey, `rule:node:n1:${T0}`);
  });

  it("hysteresis: hovering between the resolve and firing thresholds keeps it firing", () => {
    // Fires at >= 10, resolves only below 3: values of 5..9 after firing keep it firing.
    const values = [...repeat(12, 6), ...Array.from({ length: 30 }, (_, i) => 5 + (i % 5)), ...repeat(2, 6)];
    const r = run(lagRule, values);
    assert.deepEqual(
      r.events.map((e) => e.kind),
      ["firing", "resolved"],
    );
    assert.equal(r.events[1]?.at, 36 + 4);
  });

  it("a recovery shorter than resolveFor does not resolve (no resolved/firing pair)", () => {
    const values = [...repeat(20, 6), ...repeat(0, 2), ...repeat(20, 6)];
    const r = run(lagRule, values);
    assert.deepEqual(
      r.events.map((e) => e.kind),
      ["firing"],
    );
    assert.equal(r.final.status, "firing");
    assert.equal(r.final.clearSince, null);
  });

  it("degraded tier first, then escalates to firing when the firing level holds", () => {
    const values = [...repeat(5, 6), ...repeat(15, 6), ...repeat(0, 6)];
    const r = run(lagRule, values);
    assert.deepEqual(
      r.events.map((e) => [e.kind, e.from, e.to, e.at]),
      [
        ["degraded", "pending", "degraded", 4],
        ["firing", "degraded", "firing", 10],
        ["resolved", "firing", "ok", 16],
      ],
    );
  });

  it("without a degraded tier, values between the tiers never alert", () => {
    const rule = { ...lagRule, degraded: null, resolveBelow: 10 };
    const r = run(rule, repeat(7, 20));
    assert.deepEqual(r.events, []);
    assert.equal(r.final.status, "ok");
  });

  it("re-notifies at the interval while firing, and the history keeps one dedup key", () => {
    const rule = { ...lagRule, renotifyMs: 120_000 };
    const r = run(rule, repeat(20, 30));
    assert.deepEqual(
      r.events.map((e) => [e.kind, e.at]),
      [
        ["firing", 4],
        ["renotify", 12],
        ["renotify", 20],
        ["renotify", 28],
      ],
    );
    assert.equal(new Set(r.events.map((e) => e.dedupKey)).size, 1);
  });

  it("dedup: evaluating the same instant twice emits nothing new", () => {
    let state = initialAlertState(new Date(T0));
    const ctx = { inMaintenance: false, keyPrefix: "k" };
    for (let i = 0; i <= 4; i++) state = stepAlert(lagRule, state, 20, new Date(T0 + i * STEP), ctx).state;
    assert.equal(state.status, "firing");
    const again = stepAlert(lagRule, state, 20, new Date(T0 + 4 * STEP), ctx);
    assert.equal(again.event, null);
    const later = stepAlert(lagRule, again.state, 25, new Date(T0 + 5 * STEP), ctx);
    assert.equal(later.event, null);
  });

  it("no data keeps the state: a gap neither fires nor resolves", () => {
    const values = [...repeat(20, 6), ...repeat(null, 20), ...repeat(20, 2)];
    const r = run(lagRule, values);
    assert.deepEqual(
      r.events.map((e) => e.kind),
      ["firing"],
    );
    assert.equal(r.final.status, "firing");
  });

  it("maintenance silences the firing; it is told when the window ends if still firing", () => {
    const values = repeat(20, 20);
    const r = run(lagRule, values, (i) => i < 10);
    assert.deepEqual(
      r.events.map((e) => [e.kind, e.at, e.silenced]),
      [
        ["firing", 4, true],
        ["firing", 10, false],
      ],
    );
  });

  it("maintenance: an episode that starts and ends inside the window is recorded, never delivered", () => {
    const values = [...repeat(20, 8), ...repeat(0, 8), ...repeat(0, 4)];
    const r = run(lagRule, values, (i) => i < 18);
    assert.deepEqual(
      r.events.map((e) => [e.kind, e.silenced]),
      [
        ["firing", true],
        ["resolved", true],
      ],
    );
  });

  it("a notified alert that recovers during maintenance still sends its resolved notification", () => {
    const values = [...repeat(20, 8), ...repeat(0, 8)];
    const r = run(lagRule, values, (i) => i >= 6);
    assert.deepEqual(
      r.events.map((e) => [e.kind, e.silenced]),
      [
        ["firing", false],
        ["resolved", false],
      ],
    );
  });

  it("notifyResolved=false records the recovery silently", () => {
    const r = run({ ...lagRule, notifyResolved: false }, [...repeat(20, 8), ...repeat(0, 8)]);
    assert.deepEqual(
      r.events.map((e) => [e.kind, e.silenced]),
      [
        ["firing", false],
        ["resolved", true],
      ],
    );
  });

  it("quorum: one failing vantage point of three degrades, two of three fire", () => {
    const rule: EvaluatorRule = {
      ...resolveThresholds("endpoint_down", { threshold: 50, degraded: 1, windowMinutes: 3 }),
      forMs: 30_000,
      resolveForMs: 30_000,
      renotifyMs: 0,
      notifyResolved: true,
    };
    const vantage = (ok: boolean[]) => ok.map((o, i) => ({ vantagePointId: `v${i}`, probes: 4, okProbes: o ? 4 : 0 }));
    const oneDown = measureEndpointDown(vantage([true, true, false]), { minProbes: 2 });
    const twoDown = measureEndpointDown(vantage([false, true, false]), { minProbes: 2 });
    const allUp = measureEndpointDown(vantage([true, true, true]), { minProbes: 2 });
    assert.equal(Math.round(oneDown.value ?? 0), 33);
    assert.equal(Math.round(twoDown.value ?? 0), 67);
    const r = run(rule, [...repeat(oneDown.value, 4), ...repeat(twoDown.value, 4), ...repeat(allUp.value, 4)]);
    assert.deepEqual(
      r.events.map((e) => [e.kind, e.at]),
      [
        ["degraded", 2],
        ["firing", 6],
        ["resolved", 10],
      ],
    );
    // A vantage point with too few probes does not count towards the quorum either way.
    const sparse = measureEndpointDown(
      [
        { vantagePointId: "a", probes: 1, okProbes: 0 },
        { vantagePointId: "b", probes: 5, okProbes: 5 },
      ],
      { minProbes: 2 },
    );
    assert.equal(sparse.value, 0);
    assert.equal(measureEndpointDown([], { minProbes: 2 }).value, null);
  });

  it("chain-aware text: lag in blocks and time from the block interval", () => {
    const text = describeAlertEvent({
      kind: "firing",
      type: "lag",
      value: 14,
      thresholds: resolveThresholds("lag", { threshold: 10, degraded: 3 }),
      blockIntervalMs: 3_000,
      targetName: "hive-1",
      ruleName: "Lag",
      heldMs: 6 * 60_000,
    });
    assert.equal(text.title, "hive-1: 14 blocks behind (~42 seconds) for 6 minutes");
  });
});
