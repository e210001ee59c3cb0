export * from "./alert-inputs.js";
export * from "./finality-inputs.js";
export * from "./alert-rules.js";
export * from "./alert-channels.js";
export * from "./alert-states.js";
export * from "./deliveries.js";
export * from "./alert-transitions.js";
