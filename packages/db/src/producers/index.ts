export * from "./producers.js";
export * from "./producer-readings.js";
