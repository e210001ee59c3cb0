export * from "./ingest-flush.js";
export * from "./network-heads.js";
