export * from "./incidents.js";
export * from "./maintenance.js";
