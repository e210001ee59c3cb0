export * from "./ensure-database.js";
export * from "./migration-files.js";
export * from "./run-migrations.js";
export * from "./split-statements.js";
export * from "./storage-mode.js";
