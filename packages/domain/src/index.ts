export * from "./chains.js";
export * from "./wire/index.js";
