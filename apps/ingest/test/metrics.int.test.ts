// GET /metrics of the real ingest API: off without METRICS_TOKEN (404), 401 without the bearer
// token, and with it a Prometheus exposition (read with a Prometheus text parser) that counts the
// batches answered, the token cache's misses and hits, and the ingest queue's backlog in Redis.
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { Writable } from "node:stream";
import { createLogger } from "@rpcpulse/config";
import { createTestDatabase, type TestDatabase } from "@rpcpulse/db/testing";
import { closeQueues, createRedisConnection, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { parsePrometheusText } from "@rpcpulse/config/testing";
import { parseIngestEnv } from "../src/env.js";
import { startIngest, type RunningIngest } from "../src/start-ingest.js";
import { gzipBatch, makeAgentBatch } from "./support/agent-batches.js";
import { issueToken, seedNode } from "./support/fleet.js";
import { postBatch } from "./support/http.js";

const TOKEN = "metrics-token-0123456789";

function get(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    request({ host: "127.0.0.1", port, path, headers }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body }));
    })
      .on("error", reject)
      .end();
  });
}

describe("ingest GET /metrics", () => {
  let db: TestDatabase;
  let redis: Redis;
  const prefix = uniquePrefix();
  const running: RunningIngest[] = [];
  const silent = createLogger({
    name: "ingest",
    level: "warn",
    destination: new Writable({ write: (_c, _e, d) => d() }),
  });
  const start = (extra: Record<string, string>) =>
    startIngest(
      parseIngestEnv({
        DATABASE_URL: db.url,
        REDIS_URL: SHARED_REDIS_URL,
        QUEUE_PREFIX: prefix,
        INGEST_HOST: "127.0.0.1",
        INGEST_PORT: "0",
        ...extra,
      }),
      silent,
    ).then((r) => (running.push(r), r));

  before(async () => {
    db = await createTestDatabase();
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
  });
  after(async () => {
    for (const r of running) await r.stop();
    await closeQueues(redis);
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db.drop();
  });

  it("is off without METRICS_TOKEN", async () => {
    const ingest = await start({});
    assert.equal((await get(ingest.port, "/metrics", { authorization: `Bearer ${TOKEN}` })).status, 404);
  });

  it("wants the bearer token, then exposes requests, token cache and queue backlog", async () => {
    const ingest = await start({ METRICS_TOKEN: TOKEN });
    assert.equal((await get(ingest.port, "/metrics")).status, 401);
    assert.equal((await get(ingest.port, "/metrics", { authorization: "Bearer wrong-token-000000" })).status, 401);

    const node = await seedNode(db);
    const { token } = await issueToken(db, node);
    for (let seq = 1; seq <= 3; seq++) {
      const reply = await postBatch(ingest.port, { token, body: gzipBatch(makeAgentBatch(seq, { samples: 2 })) });
      assert.equal(reply.status, 202);
    }
    const scrape = await get(ingest.port, "/metrics", { authorization: `Bearer ${TOKEN}` });
    assert.equal(scrape.status, 200);
    assert.match(scrape.type, /^text\/plain; version=0\.0\.4/);
    const families = new Map(parsePrometheusText(scrape.body).map((f) => [f.name, f]));
    const value = (name: string, labels: Record<string, string>) =>
      families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value;
    assert.equal(value("rpcpulse_http_requests_total", { app: "ingest", route: "/v1/ingest", status: "202" }), "3");
    assert.equal(value("rpcpulse_http_requests_total", { route: "/metrics", status: "401" }), "2");
    assert.equal(value("rpcpulse_cache_requests_total", { cache: "agent_tokens", result: "miss" }), "1");
    assert.equal(value("rpcpulse_cache_requests_total", { cache: "agent_tokens", result: "hit" }), "2");
    // No worker consumes this prefix: the three batches wait in Redis.
    assert.equal(value("rpcpulse_queue_jobs", { queue: "ingest", state: "waiting" }), "3");
    assert.ok(Number(value("rpcpulse_queue_oldest_waiting_age_seconds", { queue: "ingest" })) >= 0);
  });
});
