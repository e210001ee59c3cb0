export * from "./chains.js";
export * from "./consensus-head.js";
export * from "./freshness-limits.js";
export * from "./wire/index.js";
export * from "./node-sample-metrics.js";
