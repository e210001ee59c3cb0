// Planted: a relative import that resolves to nothing (no-unresolvable-own-imports).
export { missing } from "./missing.js";
