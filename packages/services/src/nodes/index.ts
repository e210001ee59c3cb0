export * from "./node-status.js";
export * from "./node-input.js";
export * from "./manage-nodes.js";
export * from "./get-fleet-overview.js";
export * from "./get-node-metrics.js";
export * from "./public-head-view.js";
export * from "./probe-node-public-heads.js";
export * from "./patch-node.js";
