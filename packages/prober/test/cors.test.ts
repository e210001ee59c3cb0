import assert from "node:assert/strict";
import type http from "node:http";
import { describe, it } from "node:test";
import { checkCors, CORS_TEST_ORIGIN, createSafeHttpClient } from "../src/index.js";
import { startHttpServer } from "./helpers/servers.js";

async function withServer(
  headers: http.OutgoingHttpHeaders,
  status: number,
  fn: (url: string) => Promise<void>,
): Promise<void> {
  const server = await startHttpServer((req, res) => {
    req.resume();
    res.writeHead(req.method === "OPTIONS" ? status : 200, headers).end();
  });
  try {
    await fn(server.url);
  } finally {
    await server.close();
  }
}

describe("CORS preflight check", () => {
  const client = createSafeHttpClient({ allowPrivate: true });

  it("accepts * or our echoed origin with content-type allowed", async () => {
    await withServer(
      {
        "access-control-allow-origin": "*",
        "access-control-allow-headers": "Content-Type, Authorization",
        "access-control-allow-methods": "POST, GET",
      },
      204,
      async (url) => {
        const c = await checkCors(client, url, "POST");
        assert.deepEqual([c.allowed, c.status, c.allowOrigin, c.allowMethods], [true, 204, "*", "POST, GET"]);
      },
    );
    await withServer(
      { "access-control-allow-origin": CORS_TEST_ORIGIN, "access-control-allow-headers": "*" },
      200,
      async (url) => {
        assert.equal((await checkCors(client, url, "POST")).allowed, true);
      },
    );
  });

  it("refuses another origin, a missing content-type allowance, or a failed preflight", async () => {
    await withServer(
      { "access-control-allow-origin": "https://app.example.org", "access-control-allow-headers": "content-type" },
      204,
      async (url) => {
        assert.equal((await checkCors(client, url, "POST")).allowed, false);
      },
    );
    await withServer({ "access-control-allow-origin": "*" }, 204, async (url) => {
      assert.equal((await checkCors(client, url, "POST")).allowed, false, "JSON POST needs content-type allowed");
      assert.equal((await checkCors(client, url, "GET")).allowed, true, "a REST GET does not");
    });
    await withServer(
      { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type" },
      405,
      async (url) => {
        assert.equal((await checkCors(client, url, "POST")).allowed, false);
      },
    );
    const none = await checkCors(client, "http://127.0.0.1:1/", "POST");
    assert.deepEqual([none.allowed, none.status], [false, null]);
  });
});
