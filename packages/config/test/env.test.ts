import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { AppError, databaseEnv, parseEnv, redisEnv, runtimeEnv } from "../src/index.js";

test("parseEnv applies defaults", () => {
  const env = parseEnv({ ...databaseEnv, ...redisEnv, ...runtimeEnv }, {});
  assert.equal(env.STORAGE_MODE, "auto");
  assert.equal(env.DEMO_MODE, false);
  assert.match(env.REDIS_URL, /^redis:\/\//);
});

test("parseEnv names the wrong variable", () => {
  assert.throws(
    () => parseEnv({ ...databaseEnv, PORT: z.coerce.number().int().min(1) }, { DATABASE_URL: "mysql://x", PORT: "0" }),
    (err: unknown) =>
      err instanceof AppError && err.code === "CONFIG" && /DATABASE_URL/.test(err.message) && /PORT/.test(err.message),
  );
});
