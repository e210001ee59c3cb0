// The node process's whitelisted flags (wire settings.nodeArgs) survive normalisation and the queue
// payload schema, and reach the advisor as clientConfig (pure; the PostgreSQL leg is covered by
// advisor-settings.int.test.ts, which stores the settings JSON as it comes).
import assert from "node:assert/strict";
import { test } from "node:test";
import { IngestReportedSettings } from "@rpcpulse/queue";
import { normaliseAgentBatch } from "@rpcpulse/services/ingest";
import { toAdvisorSettings } from "@rpcpulse/services/advisor";
import { wireBatch, wireSample } from "./advisor-fixtures.js";

const sample = wireSample(Date.parse("2026-11-20T10:00:00.000Z"), {
  settings: {
    tcpTwReuse: 2,
    tcpFinTimeout: 60,
    somaxconn: 4096,
    tcpMaxSynBacklog: 1024,
    tcpMaxTwBuckets: 262144,
    ipLocalPortRange: { low: 32768, high: 60999, size: 28232 },
    tcpTwRecycleLines: [],
    nodeArgs: [{ flag: "--Db.MaxBytesPerSec", value: "1000000" }],
  },
});

test("settings.nodeArgs → queue payload → advisor clientConfig", () => {
  const { settings } = normaliseAgentBatch(wireBatch(1, [sample]));
  const queued = IngestReportedSettings.parse(settings);
  assert.deepEqual(queued.nodeArgs, [{ flag: "--Db.MaxBytesPerSec", value: "1000000" }]);
  const advisor = toAdvisorSettings({
    nodeId: "n",
    settings: queued as Record<string, unknown>,
    reportedAt: new Date(),
  });
  assert.deepEqual(advisor?.clientConfig, { "--Db.MaxBytesPerSec": "1000000", "Db.MaxBytesPerSec": "1000000" });
  const old = toAdvisorSettings({ nodeId: "n", settings: { somaxconn: 4096 }, reportedAt: new Date() });
  assert.equal(old?.clientConfig, null, "reports from agents without nodeArgs");
});
