import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppError } from "@rpcpulse/config";
import {
  computeReconnectDelay,
  INGEST_NUMERIC_METRICS,
  listRecurringJobs,
  MAX_INGEST_SAMPLES,
  parsePayload,
  queueCatalog,
  QUEUE_NAMES,
} from "../src/index.js";

const NODE = "8d2f1c4e-6b1a-4f3e-9a53-3c2b1d0e9f11";
const NETWORK = "1f0e2d3c-4b5a-4978-8877-665544332211";

/** An ingest payload of `n` samples with `ips` remote-IP rows each (what the ingest API queues). */
function ingestPayload(n = 2, ips = 1) {
  const column = (v: number | null) => Array.from({ length: n }, () => v);
  return {
    organizationId: "org_1",
    nodeId: NODE,
    networkId: NETWORK,
    batchSeq: 42,
    receivedAtMs: Date.parse("2026-11-22T10:00:00.000Z"),
    clockSkewMs: -12,
    agentVersion: "0.1.0",
    clientVersion: "hived 1.27.5",
    samples: {
      time: Array.from({ length: n }, (_, i) => Date.parse("2026-11-22T09:59:00.000Z") + i * 10_000),
      ...Object.fromEntries(INGEST_NUMERIC_METRICS.map((f) => [f, column(7)])),
      syncing: Array.from({ length: n }, () => false),
    },
    remoteIps: {
      sample: Array.from({ length: n * ips }, (_, i) => Math.floor(i / ips)),
      ip: Array.from({ length: n * ips }, (_, i) => `10.0.${i >> 8}.${i & 255}`),
      conns: Array.from({ length: n * ips }, () => 3),
    },
  };
}
const goodIngest = ingestPayload();

function validationError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AppError, `expected AppError, got ${String(error)}`);
    assert.equal(error.code, "VALIDATION");
    return error;
  }
  assert.fail("expected a validation error");
}

describe("queue catalog", () => {
  it("has one entry per queue, each with a zod payload and retry options", () => {
    assert.deepEqual(QUEUE_NAMES.sort(), ["advisor", "alerts", "ingest", "maintenance", "notify", "probe"]);
    for (const name of QUEUE_NAMES) {
      const entry = queueCatalog[name];
      assert.equal(entry.name, name);
      assert.ok((entry.defaultJobOptions.attempts ?? 0) >= 2, `${name} retries`);
      // An accepted ingest batch is never deleted: its failed jobs are parked until re-driven.
      if (name === "ingest") assert.equal(entry.defaultJobOptions.removeOnFail, false, "ingest parks failed jobs");
      else assert.ok(entry.defaultJobOptions.removeOnFail, `${name} bounds its failed set`);
    }
  });

  it("accepts a valid ingest payload and derives a colon-free idempotent job id (node, install, batchSeq)", () => {
    const parsed = parsePayload("ingest", goodIngest);
    assert.equal(parsed.batchSeq, 42);
    // An agent without installId: the stream is the first sample's time.
    const legacy = queueCatalog.ingest.jobId?.(parsed) ?? "";
    assert.equal(legacy, `ingest-${NODE}-t${goodIngest.samples.time[0]}-42`);
    const installed = queueCatalog.ingest.jobId?.(
      parsePayload("ingest", { ...goodIngest, installId: "Abc_def-0123456789" }),
    );
    assert.equal(installed, `ingest-${NODE}-Abc_def-0123456789-42`);
    for (const id of [legacy, installed]) assert.ok(!id?.includes(":"));
    assert.equal(queueCatalog.ingest.tenantOf(parsed), "org_1");
    validationError(() => parsePayload("ingest", { ...goodIngest, installId: "has:colon:0123456789" }));
  });

  it("refuses a bad ingest payload with an error naming the queue and each bad field", () => {
    const error = validationError(() =>
      parsePayload("ingest", {
        ...goodIngest,
        batchSeq: -1,
        nodeId: "a:b",
        samples: { ...goodIngest.samples, tcpEstablished: ["7", 7] },
      }),
    );
    assert.match(error.message, /^Invalid "ingest" job payload: /);
    assert.match(error.message, /batchSeq: /);
    assert.match(error.message, /nodeId: /);
    assert.match(error.message, /samples\.tcpEstablished: /);
  });

  it("refuses a missing tenant, columns of unequal length and remote IPs pointing past the samples", () => {
    const { organizationId: _o, ...noTenant } = goodIngest;
    assert.match(validationError(() => parsePayload("ingest", noTenant)).message, /organizationId: /);
    assert.match(
      validationError(() => parsePayload("ingest", { ...goodIngest, samples: { ...goodIngest.samples, peers: [1] } }))
        .message,
      /samples\.peers: has 1 entries, time has 2/,
    );
    assert.match(
      validationError(() =>
        parsePayload("ingest", { ...goodIngest, remoteIps: { sample: [5], ip: ["10.0.0.1"], conns: [1] } }),
      ).message,
      /remoteIps\.sample: /,
    );
  });

  it("strips unknown fields so an older worker accepts a newer producer's job", () => {
    const parsed = parsePayload("ingest", { ...goodIngest, addedInNextRelease: true });
    assert.equal("addedInNextRelease" in parsed, false);
  });

  it("refuses an unknown maintenance task", () => {
    assert.match(
      validationError(() => parsePayload("maintenance", { task: "nightly" })).message,
      /^Invalid "maintenance" job payload: task: /,
    );
  });

  it("bounds an ingest job: at most the wire format's samples per batch and 100 remote IPs each", () => {
    const biggest = parsePayload("ingest", ingestPayload(MAX_INGEST_SAMPLES, 100));
    // Normalised columns, about 0.5 KB per sample plus ~25 B per remote-IP row.
    assert.ok(Buffer.byteLength(JSON.stringify(biggest)) < 2 * 1024 * 1024);
    assert.match(
      validationError(() => parsePayload("ingest", ingestPayload(MAX_INGEST_SAMPLES + 1))).message,
      /samples\.time: /,
    );
    assert.match(
      validationError(() => parsePayload("ingest", { ...goodIngest, organizationId: "o".repeat(65) })).message,
      /organizationId: /,
    );
  });

  it("declares the storage maintenance scheduler with the configured period and a valid payload", () => {
    const jobs = listRecurringJobs({ maintenanceEveryMs: 120_000 });
    assert.equal(jobs.length, 1);
    const [storage] = jobs;
    assert.equal(storage?.id, "maintenance-storage");
    assert.equal(storage?.everyMs, 120_000);
    assert.deepEqual(parsePayload("maintenance", storage?.payload), { task: "storage" });
  });

  it("declares the status-page uptime precompute only when a period is configured", () => {
    assert.ok(!listRecurringJobs({ maintenanceEveryMs: 60_000 }).some((j) => j.id === "maintenance-status-uptime"));
    const job = listRecurringJobs({ maintenanceEveryMs: 60_000, statusUptimeEveryMs: 600_000 }).find(
      (j) => j.id === "maintenance-status-uptime",
    );
    assert.equal(job?.queue, "maintenance");
    assert.equal(job?.everyMs, 600_000);
    assert.deepEqual(parsePayload("maintenance", job?.payload), { task: "status-uptime" });
  });

  it("declares the advisor sweep only when a period is configured", () => {
    assert.ok(!listRecurringJobs({ maintenanceEveryMs: 60_000 }).some((j) => j.queue === "advisor"));
    const sweep = listRecurringJobs({ maintenanceEveryMs: 60_000, advisorEveryMs: 15_000 }).find(
      (j) => j.queue === "advisor",
    );
    assert.equal(sweep?.id, "advisor-sweep");
    assert.equal(sweep?.everyMs, 15_000);
    assert.deepEqual(parsePayload("advisor", sweep?.payload), { task: "sweep" });
    assert.throws(() => parsePayload("advisor", { task: "everything" }));
  });

  it("declares the delivery outbox sweep (alerts queue) only when a period is configured", () => {
    assert.ok(!listRecurringJobs({ maintenanceEveryMs: 60_000 }).some((j) => j.id === "alerts-sweep-deliveries"));
    const sweep = listRecurringJobs({ maintenanceEveryMs: 60_000, deliverySweepEveryMs: 30_000 }).find(
      (j) => j.id === "alerts-sweep-deliveries",
    );
    assert.equal(sweep?.queue, "alerts");
    assert.equal(sweep?.everyMs, 30_000);
    assert.deepEqual(parsePayload("alerts", sweep?.payload), { task: "sweep-deliveries" });
  });

  it("reconnects with a capped doubling delay", () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 50].map(computeReconnectDelay), [200, 400, 800, 1600, 3200, 5000, 5000]);
  });
});
