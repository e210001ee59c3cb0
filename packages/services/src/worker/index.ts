export * from "./check-storage-ready.js";
export * from "./perform-storage-maintenance.js";
export * from "./record-worker-heartbeat.js";
