import assert from "node:assert/strict";
import { test } from "node:test";
import {
  anchorOf,
  computeConsensusHead,
  lagAgainst,
  projectHead,
  quorumFor,
  type HeadObservation,
} from "../src/index.js";

const I = 3_000; // Hive: one block every 3 s
const T = 1_800_000_000_000;
/** A source at head `block` whose block was produced `ageMs` before it was read `readAgo` ms before T. */
const obs = (source: string, block: number, readAgo = 0, ageMs = 500): HeadObservation => ({
  source,
  headBlock: block,
  headTimeMs: T - readAgo - ageMs,
  observedAtMs: T - readAgo,
});

test("a head seen 7 s ago on a 3 s chain counts as head + 2", () => {
  const o: HeadObservation = { source: "a", headBlock: 100, headTimeMs: null, observedAtMs: T - 7_000 };
  assert.equal(projectHead({ block: 100, anchorMs: anchorOf(o, I) }, T, I), 102);
  // With the block's own time (produced 2.5 s before the read), the phase is exact: 9.5 s → +3.
  const timed = { ...o, headTimeMs: T - 9_500 };
  assert.equal(projectHead({ block: 100, anchorMs: anchorOf(timed, I) }, T, I), 103);
  // Backwards too: 4 s before the block was produced the head was one lower... two intervals → -2.
  assert.equal(projectHead({ block: 100, anchorMs: T }, T - 4_000, I), 98);
});

test("the quorum is max(2, a third of the sources); one source alone decides nothing", () => {
  assert.equal(quorumFor(1, 2), 2);
  assert.equal(quorumFor(6, 2), 2);
  assert.equal(quorumFor(7, 2), 3);
  assert.equal(quorumFor(30, 2), 10);
  const alone = computeConsensusHead([obs("a", 500)], { at: T, blockIntervalMs: I });
  assert.equal(alone.head, null);
  assert.equal(alone.considered, 1);
});

test("one source cannot raise the head, lagging ones do not pull it down", () => {
  const sources = [obs("a", 1_000), obs("b", 1_000), obs("c", 1_000), obs("late", 970), obs("liar", 1_000_000)];
  const c = computeConsensusHead(sources, { at: T, blockIntervalMs: I });
  assert.equal(c.head?.block, 1_000);
  assert.equal(c.agreeing, 3);
  assert.equal(c.considered, 5);
  assert.equal(c.sources.find((s) => s.source === "liar")?.ahead, true);
  assert.equal(c.sources.find((s) => s.source === "late")?.agrees, false);
  // Two liars among six honest sources still need the quorum (2): the head is the 2nd highest.
  const two = computeConsensusHead([...sources, obs("liar2", 1_000_000)], { at: T, blockIntervalMs: I });
  assert.equal(two.head?.block, 1_000_000, "q = 2 of 6: two colluding sources agree — the growth bound is the defence");
  const bounded = computeConsensusHead([...sources, obs("liar2", 1_000_000)], {
    at: T,
    blockIntervalMs: I,
    previous: { block: 990, anchorMs: T - 30_000 },
  });
  assert.equal(
    bounded.head?.block,
    1_000,
    "heads beyond the previous consensus + elapsed blocks + tolerance are runaway",
  );
  assert.deepEqual(
    bounded.sources.filter((s) => s.excluded === "runaway").map((s) => s.source),
    ["liar", "liar2"],
  );
});

test("stale, future, expired and implausible observations do not vote", () => {
  const sources: HeadObservation[] = [
    obs("a", 2_000),
    obs("b", 2_000),
    obs("stalled", 1_900, 0, 300_000),
    { ...obs("future", 2_050), headTimeMs: T + 60_000 },
    obs("expired", 1_999, 400_000),
    obs("huge", 2 ** 53),
  ];
  const c = computeConsensusHead(sources, { at: T, blockIntervalMs: I, ceiling: 10_000 });
  assert.equal(c.head?.block, 2_000);
  const why = Object.fromEntries(c.sources.map((s) => [s.source, s.excluded]));
  assert.deepEqual(why, {
    a: null,
    b: null,
    stalled: "stale",
    future: "future",
    expired: "expired",
    huge: "implausible",
  });
});

test("the decided anchor keeps the chosen source's phase, so later projections stay exact", () => {
  // Both sources read 10 s ago; their head was produced 1 s before the read.
  const c = computeConsensusHead([obs("a", 50, 10_000, 1_000), obs("b", 50, 10_000, 1_000)], {
    at: T,
    blockIntervalMs: I,
  });
  // Produced at T - 11 s: at T the chain is 3 blocks on (11 s / 3 s), still at T + 0.9 s, one more at T + 1 s.
  assert.equal(c.head?.block, 53);
  assert.equal(projectHead(c.head!, T + 900, I), 53);
  assert.equal(projectHead(c.head!, T + 1_000, I), 54);
  assert.equal(lagAgainst(c.head, T + 1_000, 44, I), 10);
  assert.equal(lagAgainst(c.head, T, 60, I), 0, "ahead is level, never negative");
  assert.equal(lagAgainst(null, T, 60, I), null, "no consensus: unknown, never 0");
});

test("property: the decision does not depend on the order observations arrive in", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 200; round++) {
    const n = 2 + Math.floor(random() * 10);
    const list: HeadObservation[] = [];
    for (let i = 0; i < n; i++) {
      const readAgo = Math.floor(random() * 60_000);
      const lag = random() < 0.3 ? Math.floor(random() * 40) : 0;
      // Two reads per source: only the newest counts, whatever its position in the list.
      list.push(obs(`s${i}`, 10_000 - Math.floor(readAgo / I) - lag, readAgo, Math.floor(random() * I)));
      list.push(obs(`s${i}`, 10_000 - Math.floor((readAgo + 30_000) / I) - lag, readAgo + 30_000));
    }
    const expected = computeConsensusHead(list, { at: T, blockIntervalMs: I });
    for (let k = 0; k < 5; k++) {
      const shuffled = [...list].sort(() => random() - 0.5);
      const got = computeConsensusHead(shuffled, { at: T, blockIntervalMs: I });
      assert.deepEqual(got.head, expected.head);
      assert.equal(got.agreeing, expected.agreeing);
    }
  }
});
