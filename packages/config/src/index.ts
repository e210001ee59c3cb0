export * from "./errors.js";
export * from "./env.js";
export * from "./logger.js";
export * from "./version.js";
export * from "./env-files.js";
export * from "./smtp-env.js";
