import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppError } from "@rpcpulse/config";
import { parseWorkerEnv, readConsumerSettings } from "../src/env.js";

describe("worker env", () => {
  it("has working defaults: maintenance consumer on, concurrency 1, no limiter, 15 s heartbeat", () => {
    const env = parseWorkerEnv({});
    assert.deepEqual(readConsumerSettings(env, "maintenance"), { enabled: true, concurrency: 1, limiter: undefined });
    assert.equal(env.WORKER_HEARTBEAT_INTERVAL_MS, 15_000);
    assert.equal(env.MAINTENANCE_INTERVAL_MS, 60_000);
    assert.equal(env.WORKER_HEALTH_PORT, 3002);
    assert.equal(env.WORKER_ID, undefined);
  });

  it("reads per-queue consumer flags, concurrency and rate limit", () => {
    const env = parseWorkerEnv({
      WORKER_MAINTENANCE_ENABLED: "0",
      WORKER_MAINTENANCE_CONCURRENCY: "4",
      WORKER_MAINTENANCE_LIMIT_MAX: "10",
      WORKER_MAINTENANCE_LIMIT_DURATION_MS: "60000",
    });
    assert.deepEqual(readConsumerSettings(env, "maintenance"), {
      enabled: false,
      concurrency: 4,
      limiter: { max: 10, duration: 60_000 },
    });
  });

  it("names every bad variable", () => {
    assert.throws(
      () => parseWorkerEnv({ WORKER_MAINTENANCE_CONCURRENCY: "0", WORKER_ID: "has space", DATABASE_URL: "mysql://x" }),
      (error: unknown) =>
        error instanceof AppError &&
        error.code === "CONFIG" &&
        /WORKER_MAINTENANCE_CONCURRENCY: /.test(error.message) &&
        /WORKER_ID: must be 1-128/.test(error.message) &&
        /DATABASE_URL: must be a postgres:\/\/ URL/.test(error.message),
    );
  });
});
