export * from "./agent-sample.js";
export * from "./agent-batch.js";
export * from "./agent-probe.js";
