// The directory's stale-while-revalidate memo (network head, ranked list): one load per fresh
// period, stale answers while exactly one refresh runs, failures never cached over a good value.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createStaleMemo } from "../src/directory/stale-memo.js";

function counter() {
  const calls: string[] = [];
  return {
    calls,
    load: (value: string) => () => {
      calls.push(value);
      return Promise.resolve(value);
    },
  };
}

describe("createStaleMemo", () => {
  test("a fresh value is served without loading; a stale one while one refresh runs", async () => {
    const memo = createStaleMemo<string>({ freshMs: 5_000, staleMs: 60_000 });
    const pool = {};
    const c = counter();
    assert.equal(await memo(pool, "k", 0, c.load("a")), "a");
    assert.equal(await memo(pool, "k", 4_999, c.load("b")), "a");
    assert.deepEqual(c.calls, ["a"]);
    // Stale: the old value now, one refresh in the background however many callers ask.
    const stale = [memo(pool, "k", 6_000, c.load("c")), memo(pool, "k", 6_001, c.load("d"))];
    assert.deepEqual(await Promise.all(stale), ["a", "a"]);
    assert.deepEqual(c.calls, ["a", "c"]);
    await new Promise((r) => setImmediate(r));
    assert.equal(await memo(pool, "k", 6_002, c.load("e")), "c");
    // Past the stale bound the caller waits for a new read.
    assert.equal(await memo(pool, "k", 70_000, c.load("f")), "f");
    assert.deepEqual(c.calls, ["a", "c", "f"]);
  });

  test("keys and owners are separate; a clock that went back reloads", async () => {
    const memo = createStaleMemo<string>({ freshMs: 5_000, staleMs: 60_000 });
    const [p1, p2] = [{}, {}];
    const c = counter();
    assert.equal(await memo(p1, "k", 10_000, c.load("a")), "a");
    assert.equal(await memo(p2, "k", 10_000, c.load("b")), "b");
    assert.equal(await memo(p1, "j", 10_000, c.load("c")), "c");
    assert.equal(await memo(p1, "k", 9_000, c.load("d")), "d");
    assert.deepEqual(c.calls, ["a", "b", "c", "d"]);
  });

  test("a failed first read is forgotten; a failed refresh keeps the stale value and may retry", async () => {
    const memo = createStaleMemo<string>({ freshMs: 5_000, staleMs: 60_000 });
    const pool = {};
    await assert.rejects(
      memo(pool, "k", 0, () => Promise.reject(new Error("down"))),
      /down/,
    );
    assert.equal(await memo(pool, "k", 1, () => Promise.resolve("a")), "a");
    let refreshes = 0;
    const failing = () => {
      refreshes++;
      return Promise.reject(new Error("down"));
    };
    assert.equal(await memo(pool, "k", 6_000, failing), "a");
    await new Promise((r) => setImmediate(r));
    assert.equal(await memo(pool, "k", 6_100, failing), "a");
    await new Promise((r) => setImmediate(r));
    assert.equal(refreshes, 2);
    assert.equal(await memo(pool, "k", 6_200, () => Promise.resolve("b")), "a");
    await new Promise((r) => setImmediate(r));
    assert.equal(await memo(pool, "k", 6_300, () => Promise.resolve("c")), "b");
  });

  test("at most maxEntries keys per owner, the oldest dropped first", async () => {
    const memo = createStaleMemo<string>({ freshMs: 5_000, staleMs: 60_000, maxEntries: 2 });
    const pool = {};
    const c = counter();
    await memo(pool, "a", 0, c.load("a1"));
    await memo(pool, "b", 0, c.load("b1"));
    await memo(pool, "c", 0, c.load("c1"));
    assert.equal(await memo(pool, "b", 1, c.load("b2")), "b1");
    assert.equal(await memo(pool, "a", 1, c.load("a2")), "a2");
    assert.deepEqual(c.calls, ["a1", "b1", "c1", "a2"]);
  });
});
