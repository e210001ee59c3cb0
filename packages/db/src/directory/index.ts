export * from "./public-endpoints.js";
export * from "./endpoint-capabilities.js";
export * from "./endpoint-rankings.js";
export * from "./probe-samples.js";
export * from "./probe-window-stats.js";
export * from "./vantage-endpoints.js";
export * from "./endpoint-claims.js";
export * from "./network-observations.js";
