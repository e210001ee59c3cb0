import assert from "node:assert/strict";
import { createServer } from "node:net";
import { test } from "node:test";
import { freePort, waitFor } from "../src/testing.js";

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
