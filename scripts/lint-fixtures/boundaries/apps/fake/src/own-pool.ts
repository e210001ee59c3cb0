// Breaks sql-only-in-db: an app creating its own pg Pool.
export { default as pg } from "pg";
