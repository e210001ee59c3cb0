import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { EndpointDetailResponse } from "@rpcpulse/services/directory";
import { factsFromDetail } from "../src/features/directory/badge-facts.js";
import { badgeFor } from "../src/features/directory/badge-metric.js";

function detail(health: string, uptime: number, availability: number): EndpointDetailResponse {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    url: "https://rpc.example",
    name: "example",
    provider: null,
    family: "ethereum",
    network: "ethereum-mainnet",
    chain: "ethereum",
    status: "active",
    operatorVerified: false,
    claimedBy: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    capabilities: null,
    windows: [
      {
        window: "24h",
        region: "all",
        rank: 3,
        score: 71,
        health,
        samples: 2_880,
        okSamples: 2_880,
        availability,
        p50Ms: 40,
        p95Ms: 80,
        lagBlocks: 30,
        headRegressions: 0,
        components: { uptime: { h24: uptime, d7: uptime, d30: null } },
        vantage: null,
        updatedAt: "2026-01-01T00:00:00.000Z",
      },
    ],
  };
}

describe("endpoint badges follow freshness", () => {
  test("an endpoint 30 blocks behind on every probe: status 'lagging', uptime 0 %, never 'up'/100 %", () => {
    const facts = factsFromDetail(detail("lagging", 0, 1));
    assert.equal(facts.status, "lagging");
    assert.equal(facts.uptime24h, 0, "answers that lag are not uptime, even at 100 % availability");
    assert.deepEqual(badgeFor("status", facts), { label: "rpc", message: "lagging", color: "#c05a17" });
    assert.equal(badgeFor("uptime", facts).message, "0.0%");
  });

  test("stale reads 'stale'; healthy reads 'up'", () => {
    assert.equal(badgeFor("status", factsFromDetail(detail("stale", 0, 1))).message, "stale");
    const healthy = factsFromDetail(detail("healthy", 1, 1));
    assert.equal(badgeFor("status", healthy).message, "up");
    assert.equal(badgeFor("uptime", healthy).message, "100%");
  });
});
