export * from "./chains.js";
export * from "./consensus-head.js";
export * from "./wire/index.js";
