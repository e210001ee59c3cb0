import { test } from "node:test";
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { createLogger, redactTokens } from "../src/index.js";

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  return { stream, text: () => chunks.join("") };
}

test("logger redacts secrets in fields and tokens in messages", () => {
  const out = capture();
  const log = createLogger({ name: "t", destination: out.stream });
  log.info(
    { token: "rpa_supersecretvalue123", headers: { authorization: "Bearer x" } },
    "got rpa_abcdefghijklmnop from agent",
  );
  const text = out.text();
  assert.ok(!text.includes("supersecret"));
  assert.ok(!text.includes("abcdefghijklmnop"));
  assert.ok(!text.includes("Bearer x"));
  assert.equal(redactTokens("x rpa_0123456789abc y"), "x rpa_[redacted] y");
});
