import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { agentBatchSchema, agentSampleSchema, buildWireFormatJsonSchema, WIRE_FORMAT_VERSION } from "@rpcpulse/domain";
import { Sampler } from "../src/collect/sampler.js";

const SCHEMA_FILE = new URL("../wire-format.schema.json", import.meta.url);

test("wire-format.schema.json is generated from the zod schema and up to date (npm run schema -w @rpcpulse/agent)", () => {
  const committed = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as unknown;
  assert.deepEqual(committed, buildWireFormatJsonSchema());
});

test("a real batch validates; bounds reject oversized arrays, strings and bad addresses", async () => {
  const sample = await new Sampler({
    publicPorts: null,
    topN: 100,
    dataDirs: [],
    process: null,
    chain: null,
  }).collect();
  const batch = {
    wireVersion: WIRE_FORMAT_VERSION,
    agent: { version: "0.1.0", hostname: "node-1" },
    nodeId: "node_abc",
    batchSeq: 7,
    sentAt: new Date().toISOString(),
    samples: [sample],
  };
  assert.ok(agentBatchSchema.safeParse(batch).success);
  assert.equal(
    agentBatchSchema.safeParse({ ...batch, samples: [] }).success,
    false,
    "a batch carries at least one sample",
  );
  assert.equal(
    agentBatchSchema.safeParse({ ...batch, samples: Array(361).fill(sample) }).success,
    false,
    "at most 360 samples",
  );
  assert.equal(agentBatchSchema.safeParse({ ...batch, batchSeq: -1 }).success, false);
  assert.equal(
    agentBatchSchema.safeParse({ ...batch, agent: { version: "0.1.0", hostname: "h".repeat(254) } }).success,
    false,
  );
  const ip = { ip: "10.0.0.1", connections: 1, established: 1, timeWait: 0 };
  const remoteIps = { ports: [8091], distinctIps: 101, totalConnections: 101, top: Array(101).fill(ip) };
  assert.equal(agentSampleSchema.safeParse({ ...sample, remoteIps }).success, false, "top N is capped at 100");
  assert.ok(agentSampleSchema.safeParse({ ...sample, remoteIps: { ...remoteIps, top: Array(100).fill(ip) } }).success);
  assert.equal(
    agentSampleSchema.safeParse({ ...sample, remoteIps: { ...remoteIps, top: [{ ...ip, ip: "::ffff:10.0.0.1.5" }] } })
      .success,
    false,
  );
  assert.ok(
    agentSampleSchema.safeParse({ ...sample, remoteIps: { ...remoteIps, top: [{ ...ip, ip: "2001:db8::1" }] } })
      .success,
  );
  assert.equal(
    agentSampleSchema.safeParse({ ...sample, errors: [{ group: "tcp", message: "x".repeat(513) }] }).success,
    false,
  );
  assert.equal(
    agentSampleSchema.safeParse({ ...sample, extra: 1 }).success,
    true,
    "zod objects strip unknown keys (forward compatible)",
  );
  const json = buildWireFormatJsonSchema() as { properties: { samples: { maxItems: number } } };
  assert.equal(json.properties.samples.maxItems, 360);
});
