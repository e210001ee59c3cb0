// Breaks sql-only-in-db: a pg-* driver that is not installed (seen by its bare name).
export { default as Cursor } from "pg-cursor";
