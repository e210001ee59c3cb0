export * from "./producers.js";
export * from "./producer-readings.js";
export * from "./miss-evidence.js";
export * from "./validators.js";
export * from "./producer-retention.js";
