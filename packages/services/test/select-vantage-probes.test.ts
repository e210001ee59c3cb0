import assert from "node:assert/strict";
import { test } from "node:test";
import type { AgentProbe } from "@rpcpulse/domain";
import { MAX_PROBES_PER_ENDPOINT_PER_BATCH, selectVantageProbes } from "../src/ingest/select-vantage-probes.js";

const A = "00000000-0000-4000-8000-00000000000a";
const B = "00000000-0000-4000-8000-00000000000b";
const received = Date.UTC(2026, 10, 22, 6, 0, 0);
const window = { receivedAtMs: received, clockSkewMs: 2_000, maxClockSkewMs: 600_000, maxSampleAgeMs: 3_600_000 };

const probe = (endpointId: string, atMs: number): AgentProbe => ({
  endpointId,
  startedAt: new Date(atMs).toISOString(),
  ok: true,
  httpStatus: 200,
  errorClass: null,
  errorMessage: null,
  rateLimited: false,
  responseBytes: 300,
  headBlock: 5,
  headTime: new Date(atMs - 1_000).toISOString(),
  finalizedBlock: 3,
  phases: { dnsMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 20, totalMs: 21 },
});

test("keeps only allowed endpoints, in the time window, capped per endpoint; times on the server clock", () => {
  const probes = [
    probe(A, received),
    probe(B, received),
    probe(A, received + 3_600_000), // future beyond skew
    probe(A, received - 2 * 3_600_000), // too old
    ...Array.from({ length: MAX_PROBES_PER_ENDPOINT_PER_BATCH + 3 }, (_, i) => probe(A, received - 1_000 * (i + 1))),
  ];
  const out = selectVantageProbes({ region: "eu-west", probes }, new Set([A]), window);
  assert.equal(out.accepted, MAX_PROBES_PER_ENDPOINT_PER_BATCH);
  assert.equal(out.refused, probes.length - MAX_PROBES_PER_ENDPOINT_PER_BATCH);
  assert.equal(out.vantage?.region, "eu-west");
  const first = out.vantage!.probes[0]!;
  assert.equal(first.time, received - 2_000, "the agent's clock skew is removed");
  assert.equal(first.ttfbMs, 20);
  assert.ok(out.vantage!.probes.every((p) => p.endpointId === A));
});

test("nothing kept when the allowed list is unknown or the batch has no probes", () => {
  assert.deepEqual(selectVantageProbes({ region: "eu-west", probes: [probe(A, received)] }, null, window), {
    vantage: undefined,
    accepted: 0,
    refused: 1,
  });
  assert.deepEqual(selectVantageProbes(undefined, new Set([A]), window), {
    vantage: undefined,
    accepted: 0,
    refused: 0,
  });
});
