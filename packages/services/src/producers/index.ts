export * from "./parse-witness.js";
export * from "./poll-witnesses.js";
export * from "./manage-producers.js";
export * from "./seed-demo-producers.js";
export * from "./explain-miss.js";
export * from "./parse-validator.js";
export * from "./poll-validators.js";
export * from "./manage-validators.js";
