export * from "./seed-catalog.js";
export * from "./storage-jobs.js";
export * from "./worker-heartbeats.js";
