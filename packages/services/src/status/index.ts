export * from "./auto-incidents.js";
export * from "./render-markdown.js";
export * from "./snapshot-cache.js";
