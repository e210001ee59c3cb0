import assert from "node:assert/strict";
import { test } from "node:test";
import { freshnessLimits } from "@rpcpulse/domain";
import { headAgeThresholdMs, lagThresholdBlocks } from "../src/fleet/node-status.js";

test("directory endpoints are held to the same lag and head-age limits as nodes", () => {
  for (const interval of [400, 1_000, 2_000, 3_000, 6_000, 12_000, 20_000]) {
    assert.deepEqual(freshnessLimits(interval), {
      lagBlocks: lagThresholdBlocks(interval),
      headAgeMs: headAgeThresholdMs(interval),
    });
  }
});
