export * from "./ssrf/index.js";
export * from "./probe/index.js";
export * from "./rank/index.js";
