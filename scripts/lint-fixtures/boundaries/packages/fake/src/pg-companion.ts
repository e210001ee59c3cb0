// Breaks sql-only-in-db: a pg-* companion package (installed, resolved into node_modules).
export { default as Pool } from "pg-pool";
