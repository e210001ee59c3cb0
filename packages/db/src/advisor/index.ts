export * from "./advisor-nodes.js";
export * from "./evaluation-suggestions.js";
export * from "./metric-series.js";
export * from "./suggestions.js";
export * from "./telemetry-window.js";
