export * from "./get-health.js";
export * from "./check-storage-ready.js";
export * from "./perform-storage-maintenance.js";
export * from "./record-worker-heartbeat.js";
export * from "./platform-metrics.js";
