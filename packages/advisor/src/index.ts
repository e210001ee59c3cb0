export * from "./types.js";
export { DEFAULT_THRESHOLDS, resolveThresholds } from "./thresholds.js";
export { parseClient, versionAtLeast, type ClientInfo } from "./client-version.js";
export { evaluateNode, RULES } from "./evaluate.js";
export { compareBeforeAfter, type CompareOptions } from "./stats/compare.js";
