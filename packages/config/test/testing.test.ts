import assert from "node:assert/strict";
import { createServer } from "node:net";
import { test } from "node:test";
import { allPaths, freePort, getAt, seededRandom, setAt, waitFor, type Json } from "../src/testing.js";

test("waitFor returns the first answer that is not undefined, null or false; 0 counts as an answer", async () => {
  const answers: unknown[] = [undefined, null, false, 0, 7];
  let calls = 0;
  assert.equal(await waitFor("an answer", () => answers[calls++], { intervalMs: 1 }), 0);
  assert.equal(calls, 4);
  let n = 0;
  assert.equal(await waitFor("a true predicate", async () => ++n >= 3, { intervalMs: 1 }), true);
  assert.equal(n, 3);
});

test("waitFor times out naming what it waited for; a throwing probe ends the wait unless errors are retried", async () => {
  const started = Date.now();
  await assert.rejects(
    waitFor("never", () => false, { timeoutMs: 60, intervalMs: 10 }),
    {
      message: "timed out after 60 ms waiting for never",
    },
  );
  assert.ok(Date.now() - started >= 60);
  await assert.rejects(
    waitFor("never", () => undefined, 30),
    { message: "timed out after 30 ms waiting for never" },
  );

  let calls = 0;
  const boom = () => {
    calls++;
    throw new Error("boom");
  };
  await assert.rejects(waitFor("a probe that throws", boom, 1_000), { message: "boom" });
  assert.equal(calls, 1);
  await assert.rejects(waitFor("a probe that throws", boom, { timeoutMs: 40, intervalMs: 5, retryErrors: true }), {
    message: "timed out after 40 ms waiting for a probe that throws (last error: boom)",
  });
  assert.ok(calls > 2);
  let tries = 0;
  const flaky = async () => {
    if (++tries < 3) throw new Error("not yet");
    return "up";
  };
  assert.equal(await waitFor("flaky", flaky, { intervalMs: 1, retryErrors: true }), "up");
});

test("freePort gives a loopback port that can be listened on", async () => {
  const port = await freePort();
  assert.ok(port > 0 && port < 65_536);
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  await new Promise((resolve) => server.close(resolve));
});

test("seededRandom repeats its sequence for a seed and stays in [0, 1)", () => {
  const a = seededRandom(42);
  const b = seededRandom(42);
  const first = Array.from({ length: 1000 }, () => a());
  assert.deepEqual(
    Array.from({ length: 1000 }, () => b()),
    first,
  );
  assert.ok(first.every((x) => x >= 0 && x < 1));
  assert.notDeepEqual(Array.from({ length: 10 }, seededRandom(43)), first.slice(0, 10));
});

test("allPaths, getAt and setAt walk, read and edit a JSON value in place", () => {
  const value: Json = { a: [1, { b: "x" }], c: null };
  assert.deepEqual(allPaths(value), [[], ["a"], ["a", 0], ["a", 1], ["a", 1, "b"], ["c"]]);
  assert.equal(getAt(value, ["a", 1, "b"]), "x");
  assert.equal(setAt(value, ["a", 1, "b"], 2), value);
  setAt(value, ["a", 0], undefined);
  setAt(value, ["c"], undefined);
  assert.deepEqual(value, { a: [{ b: 2 }] });
  assert.equal(setAt(value, [], 7), 7);
});
