// Platform metrics read with a real Prometheus text parser: request/job/flush observations, queue
// depths and the oldest waiting job's age from real BullMQ queues in Redis, replica lag, cache hits.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { closeQueues, createRedisConnection, getQueue, type QueueTarget, type Redis } from "@rpcpulse/queue";
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from "@rpcpulse/queue/testing";
import { parsePrometheusText } from "@rpcpulse/config/testing";
import { authorizeMetricsRequest, createPlatformMetrics } from "@rpcpulse/services/platform";

describe("platform metrics (/metrics exposition)", () => {
  let redis: Redis;
  let target: QueueTarget;

  before(async () => {
    redis = createRedisConnection(SHARED_REDIS_URL, { role: "worker" });
    target = { connection: redis, prefix: uniquePrefix() };
  });
  after(async () => {
    await closeQueues(redis);
    await deleteKeys(redis, target.prefix);
    await redis.quit();
  });

  test("exposes what was observed and what the queues, replica and caches hold at scrape time", async () => {
    const queue = getQueue("advisor", target);
    await queue.pause();
    await queue.add("advisor", { task: "sweep" });
    await queue.add("advisor", { task: "sweep" });
    await new Promise((r) => setTimeout(r, 1_100));

    const metrics = createPlatformMetrics("worker");
    metrics.watchQueues(target, ["advisor", "notify"]);
    metrics.watchReplica(() => ({
      configured: true,
      serving: "primary",
      lagMs: 2_500,
      lagBytes: 4096,
      checkedAt: new Date().toISOString(),
      reason: "lagging",
    }));
    let hits = 7;
    metrics.watchCache("agent_tokens", () => ({ hits, misses: 3 }));
    metrics.observeRequest("/v1/ingest", "POST", 202, 0.012);
    metrics.observeRequest("/v1/ingest", "POST", 202, 0.3);
    metrics.observeRequest("/v1/ingest", "POST", 503, 0.001);
    metrics.observeJob("ingest", "completed", 0.05);
    metrics.observeJob("ingest", "failed", 0.2, true);
    metrics.observeFlush(1_200, 0.08);

    const { contentType, body } = await metrics.render();
    assert.match(contentType, /^text\/plain; version=0\.0\.4/);
    const families = new Map(parsePrometheusText(body).map((f) => [f.name, f]));
    const sample = (name: string, labels: Record<string, string>) =>
      families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

    assert.equal(
      sample("rpcpulse_http_requests_total", { route: "/v1/ingest", status: "202", app: "worker" })?.value,
      "2",
    );
    assert.equal(sample("rpcpulse_http_requests_total", { status: "503" })?.value, "1");
    // The parser keeps one set of buckets per histogram family (its labels dropped): enough for one
    // label set. "+Inf" is the count.
    const buckets = (name: string) => families.get(name)?.metrics[0]?.buckets;
    assert.equal(families.get("rpcpulse_http_request_duration_seconds")?.type, "HISTOGRAM");
    assert.equal(buckets("rpcpulse_http_request_duration_seconds")?.["+Inf"], "3");
    assert.equal(buckets("rpcpulse_http_request_duration_seconds")?.["0.025"], "2");
    assert.equal(sample("rpcpulse_job_failures_total", { queue: "ingest", permanent: "true" })?.value, "1");
    assert.equal(families.get("rpcpulse_job_duration_seconds")?.type, "HISTOGRAM");
    assert.equal(buckets("rpcpulse_ingest_flush_rows")?.["1000"], "0");
    assert.equal(buckets("rpcpulse_ingest_flush_rows")?.["2500"], "1");
    assert.match(body, /^rpcpulse_ingest_flush_rows_sum\{app="worker"\} 1200$/m);
    assert.equal(sample("rpcpulse_queue_jobs", { queue: "advisor", state: "waiting" })?.value, "2");
    assert.equal(sample("rpcpulse_queue_jobs", { queue: "notify", state: "waiting" })?.value, "0");
    const age = Number(sample("rpcpulse_queue_oldest_waiting_age_seconds", { queue: "advisor" })?.value);
    assert.ok(age >= 1 && age < 60, `oldest waiting age ${age}`);
    assert.equal(sample("rpcpulse_queue_oldest_waiting_age_seconds", { queue: "notify" })?.value, "0");
    assert.equal(sample("rpcpulse_db_replica_lag_seconds", {})?.value, "2.5");
    assert.equal(sample("rpcpulse_db_replica_lag_bytes", {})?.value, "4096");
    assert.equal(sample("rpcpulse_db_reads_on_replica", {})?.value, "0");
    assert.equal(sample("rpcpulse_cache_requests_total", { cache: "agent_tokens", result: "hit" })?.value, "7");
    assert.equal(families.get("rpcpulse_process_cpu_seconds_total")?.type, "COUNTER");

    // Counters read at scrape time follow their source, never double-count.
    hits = 9;
    const again = new Map(parsePrometheusText((await metrics.render()).body).map((f) => [f.name, f]));
    const hitSample = again
      .get("rpcpulse_cache_requests_total")
      ?.metrics.find((m) => m.labels?.result === "hit" && m.labels.cache === "agent_tokens");
    assert.equal(hitSample?.value, "9");
  });

  test("the endpoint is off without METRICS_TOKEN and wants the exact bearer token", () => {
    const token = "0123456789abcdef0123";
    assert.equal(authorizeMetricsRequest(`Bearer ${token}`, undefined), "disabled");
    assert.equal(authorizeMetricsRequest(undefined, token), "unauthorized");
    assert.equal(authorizeMetricsRequest(`Bearer ${token}x`, token), "unauthorized");
    assert.equal(authorizeMetricsRequest(`Basic ${token}`, token), "unauthorized");
    assert.equal(authorizeMetricsRequest(`Bearer ${token}`, token), "ok");
  });
});
