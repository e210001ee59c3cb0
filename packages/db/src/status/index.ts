export * from "./incidents.js";
export * from "./maintenance.js";
export * from "./uptime-days.js";
export * from "./uptime-refs.js";
export * from "./component-telemetry.js";
export * from "./status-pages.js";
export * from "./page-incidents.js";
export * from "./subscribers.js";
