import assert from "node:assert/strict";
import { test } from "node:test";
import { splitWindowRanges } from "../src/directory/probe-rank-windows.js";

type Table = "probe_rank_5m" | "probe_rank_1h" | "probe_rank_1d";
const TABLES: Table[] = ["probe_rank_5m", "probe_rank_1h", "probe_rank_1d"];

/** Deterministic pseudo-random integers (LCG), so a failure repeats. */
function rng(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s % n;
  };
}

/** The buckets 0..99 of each table a set of ranges covers, as "table:bucket" keys. */
function covered(ranges: ReadonlyArray<{ table: Table; from: number; to: number }>): string[] {
  const keys = new Set<string>();
  for (const r of ranges) for (let b = r.from; b < r.to; b++) keys.add(`${r.table}:${b}`);
  return [...keys].sort();
}

test("each window is exactly the union of its pieces, and pieces never overlap", () => {
  const next = rng(7);
  for (let round = 0; round < 500; round++) {
    const windows = Array.from({ length: 1 + next(4) }, () =>
      TABLES.flatMap((table) =>
        Array.from({ length: next(3) }, () => {
          const from = next(100);
          return { table, from, to: from + 1 + next(100 - from) };
        }),
      ).filter((r, i, all) => all.findIndex((o) => o.table === r.table && o.to > r.from && o.from < r.to) === i),
    );
    const { pieces, windowPieces } = splitWindowRanges(windows);
    const all = pieces.flatMap((p) => covered([p]));
    assert.equal(new Set(all).size, all.length, "a bucket in two pieces would be summed twice");
    windows.forEach((w, i) => {
      const mine = (windowPieces[i] ?? []).map((k) => pieces[k]!);
      assert.deepEqual(covered(mine), covered(w), `window ${i} of round ${round}`);
    });
    assert.ok(
      pieces.every((_, k) => windowPieces.some((list) => list.includes(k))),
      "no piece is read for no window",
    );
  }
});

test("the ranking's windows share today's hours, the current hour's buckets and the 7 d days", () => {
  const h = 12;
  const windows = [
    [{ table: "probe_rank_5m" as const, from: 100, to: 112 }],
    [
      { table: "probe_rank_1h" as const, from: 10, to: 24 },
      { table: "probe_rank_1h" as const, from: 24, to: 34 },
      { table: "probe_rank_5m" as const, from: 96, to: 112 },
    ],
    [
      { table: "probe_rank_1h" as const, from: 2, to: h },
      { table: "probe_rank_1d" as const, from: 1, to: 7 },
      { table: "probe_rank_1h" as const, from: 24, to: 34 },
      { table: "probe_rank_5m" as const, from: 96, to: 112 },
    ],
  ];
  const { pieces, windowPieces } = splitWindowRanges(windows);
  const shared = pieces.findIndex((p) => p.table === "probe_rank_1h" && p.from === 24 && p.to === 34);
  assert.ok(windowPieces[1]?.includes(shared) && windowPieces[2]?.includes(shared), "today's hours read once");
  const current = pieces.findIndex((p) => p.table === "probe_rank_5m" && p.from === 100 && p.to === 112);
  assert.deepEqual(
    windowPieces.map((list) => list.includes(current)),
    [true, true, true],
  );
});
