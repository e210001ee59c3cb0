export * from "./accept-agent-batch.js";
export * from "./check-batch-heads.js";
export * from "./ingest-writer.js";
export * from "./network-heads.js";
export * from "./normalise-agent-batch.js";
export * from "./select-vantage-probes.js";
export * from "./write-ingest-job.js";
export * from "./normalise-beacon.js";
